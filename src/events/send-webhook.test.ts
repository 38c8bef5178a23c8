import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../../test/webhook-receiver.ts";
import { outcomeOf } from "./deliver-webhooks.ts";
import { RESPONSE_EXCERPT_CHARS, sendWebhook } from "./send-webhook.ts";
import { signatureValid } from "./webhook-signature.ts";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const event = { id: "evt_1", type: "settlement.finalized", payload: '{"id":"evt_1"}', deliveryId: "d1" };

describe("sending one webhook", () => {
  it("POSTs the payload signed, with the event's headers, and reads the answer", async () => {
    const result = await sendWebhook({ url: receiver.url, secrets: ["whsec_a"] }, event, {
      timeoutMs: 5_000,
      publicOnly: false,
    });
    expect(result).toEqual({ answered: true, status: 200, excerpt: "ok" });
    const [delivery] = receiver.received;
    expect(delivery!.body).toBe(event.payload);
    expect(delivery!.headers).toMatchObject({
      "content-type": "application/json",
      "junction-event-id": "evt_1",
      "junction-event-type": "settlement.finalized",
      "junction-delivery-id": "d1",
    });
    expect(signatureValid(String(delivery!.headers["junction-signature"]), delivery!.body, "whsec_a")).toBe(
      true,
    );
  });

  it("refuses a private address without connecting when only public ones are allowed", async () => {
    const before = receiver.received.length;
    const result = await sendWebhook({ url: receiver.url, secrets: ["whsec_a"] }, event, {
      timeoutMs: 5_000,
      publicOnly: true,
    });
    expect(result).toEqual({ answered: false, failure: "refused-address" });
    expect(receiver.received.length).toBe(before);
  });

  it("names a refused connection in closed words, and keeps only an excerpt of an answer", async () => {
    const closed = await sendWebhook({ url: "http://127.0.0.1:1/hooks", secrets: ["s"] }, event, {
      timeoutMs: 5_000,
      publicOnly: false,
    });
    expect(closed).toEqual({ answered: false, failure: "connection-refused" });
    receiver.answer(503);
    const failed = await sendWebhook({ url: receiver.url, secrets: ["s"] }, event, {
      timeoutMs: 5_000,
      publicOnly: false,
    });
    expect(failed).toMatchObject({ answered: true, status: 503 });
    expect((failed as { excerpt: string }).excerpt.length).toBeLessThanOrEqual(RESPONSE_EXCERPT_CHARS);
  });

  it("records a 2xx as delivered, anything else as retried, and the last attempt as failed", () => {
    expect(outcomeOf({ answered: true, status: 204, excerpt: "" }, 1, 1).status).toBe("delivered");
    const retry = outcomeOf({ answered: true, status: 500, excerpt: "no" }, 1, 1);
    expect(retry).toMatchObject({ status: "pending", httpStatus: 500, responseExcerpt: "no" });
    expect(retry.retryInMs).toBeGreaterThanOrEqual(4_000);
    expect(outcomeOf({ answered: true, status: 301, excerpt: "" }, 1, 1).status).toBe("pending");
    expect(outcomeOf({ answered: false, failure: "timeout" }, 12, 1)).toMatchObject({
      status: "failed",
      error: "timeout",
      httpStatus: null,
    });
  });
});
