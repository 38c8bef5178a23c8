import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WebhookSignatureError } from "./errors.ts";
import { verifyWebhook } from "./verify-webhook.ts";

/** Signatures made as the service makes them (src/events/webhook-signature.ts), with node:crypto. */
const sign = (secret: string, t: number, body: string) =>
  createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
const header = (t: number, body: string, ...secrets: string[]) =>
  [`t=${t}`, ...secrets.map((secret) => `v1=${sign(secret, t, body)}`)].join(",");

const SECRET = "whsec_current";
const OLD = "whsec_rotated_out";
const T = 1_764_403_200;
const NOW = T * 1000 + 2_000;
const body = JSON.stringify({
  id: "evt_4f1c0c2b8f7a4d51a3b06f7f61c2a9de",
  type: "settlement.finalized",
  createdAt: "2026-11-29T10:00:02.113Z",
  workspace: "ws",
  quoteId: `0x${"5c".repeat(32)}`,
  data: { amountOut: "1000", status: "finalized" },
});

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => "verified",
    (error: unknown) => (error instanceof WebhookSignatureError ? error.reason : error),
  );

describe("verifyWebhook", () => {
  it("returns the parsed event of a valid delivery", async () => {
    const event = await verifyWebhook(body, header(T, body, SECRET), SECRET, { now: NOW });
    expect(event).toEqual(JSON.parse(body));
    expect(event.type === "settlement.finalized" && event.data.status).toBe("finalized");
  });

  it("refuses a body changed after signing", async () => {
    const tampered = body.replace('"1000"', '"9000"');
    expect(await reason(verifyWebhook(tampered, header(T, body, SECRET), SECRET, { now: NOW }))).toBe(
      "no-matching-signature",
    );
  });

  it("refuses a signature made with another secret", async () => {
    expect(await reason(verifyWebhook(body, header(T, body, "whsec_other"), SECRET, { now: NOW }))).toBe(
      "no-matching-signature",
    );
  });

  it("refuses a signature older (or newer) than the tolerance, and takes a custom tolerance", async () => {
    const old = header(T - 301, body, SECRET);
    expect(await reason(verifyWebhook(body, old, SECRET, { now: T * 1000 }))).toBe(
      "timestamp-out-of-tolerance",
    );
    expect(await reason(verifyWebhook(body, header(T + 301, body, SECRET), SECRET, { now: T * 1000 }))).toBe(
      "timestamp-out-of-tolerance",
    );
    expect(await reason(verifyWebhook(body, header(T - 300, body, SECRET), SECRET, { now: T * 1000 }))).toBe(
      "verified",
    );
    expect(await reason(verifyWebhook(body, old, SECRET, { now: T * 1000, toleranceSeconds: 600 }))).toBe(
      "verified",
    );
    // The real clock by default: a signature made in 1970 is out of tolerance.
    expect(await reason(verifyWebhook(body, header(1, body, SECRET), SECRET))).toBe(
      "timestamp-out-of-tolerance",
    );
  });

  it("verifies during a rotation: two v1s, the receiver holding either secret (or both)", async () => {
    const rotating = header(T, body, SECRET, OLD);
    for (const held of [SECRET, OLD, [OLD, SECRET], [SECRET, OLD], ["whsec_other", OLD]])
      expect(await reason(verifyWebhook(body, rotating, held, { now: NOW }))).toBe("verified");
    expect(await reason(verifyWebhook(body, rotating, ["whsec_a", "whsec_b"], { now: NOW }))).toBe(
      "no-matching-signature",
    );
    // A receiver already on the new secret, a delivery signed with the old one only.
    expect(await reason(verifyWebhook(body, header(T, body, OLD), [SECRET, OLD], { now: NOW }))).toBe(
      "verified",
    );
  });

  it("refuses a missing or malformed header before any HMAC", async () => {
    for (const missing of [undefined, null, "", "  "])
      expect(await reason(verifyWebhook(body, missing, SECRET, { now: NOW }))).toBe("missing-header");
    const v1 = sign(SECRET, T, body);
    for (const malformed of [
      `v1=${v1}`, // no time
      `t=${T}`, // no signature
      `t=${T},t=${T},v1=${v1}`, // two times
      `t=soon,v1=${v1}`,
      `t=${T},v1=${v1.slice(0, 63)}`,
      `t=${T},v0=${v1}`,
      "garbage",
    ])
      expect(await reason(verifyWebhook(body, malformed, SECRET, { now: NOW }))).toBe("malformed");
    // Spaces after commas, unknown keys and uppercase hex are tolerated.
    expect(
      await reason(verifyWebhook(body, `t=${T}, v0=abc, v1=${v1.toUpperCase()}`, SECRET, { now: NOW })),
    ).toBe("verified");
  });

  it("refuses a signed body that is not an event", async () => {
    for (const signed of ["not json", "[]", '{"id":1}'])
      expect(await reason(verifyWebhook(signed, header(T, signed, SECRET), SECRET, { now: NOW }))).toBe(
        "invalid-body",
      );
  });

  it("returns the test event an owner sends", async () => {
    const test = JSON.stringify({
      id: "evt_test_1",
      type: "webhook.test",
      createdAt: "2026-11-29T10:00:00.000Z",
      workspace: "ws",
      quoteId: null,
      data: { endpointId: "we_1" },
    });
    const event = await verifyWebhook(test, header(T, test, SECRET), SECRET, { now: NOW });
    expect(event.type === "webhook.test" && event.data.endpointId).toBe("we_1");
  });
});
