import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../../test/webhook-receiver.ts";
import { createWorkspace } from "../auth/keys.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { insertEvents } from "../store/repositories/events.ts";
import { claimDueDeliveries, deliveriesOf } from "../store/repositories/webhook-deliveries.ts";
import { createThrowawayStore } from "../store/throwaway-store.ts";
import { startWebhookSender } from "./deliver-webhooks.ts";
import { envelope } from "./event-envelope.ts";
import { createOutboxSignal } from "./outbox-signal.ts";
import { addWebhookEndpoint } from "./webhook-endpoints.ts";

/**
 * The outbox as several hosts share it: two senders, each with its own connection to one database (on
 * the Postgres server when DATABASE_URL is set, as hosts run; otherwise two senders on one embedded
 * database), deliver every delivery exactly once between them; a delivery claimed by a process that dies
 * before recording it is sent again once the claim expires.
 */
const databaseUrl = process.env.DATABASE_URL;
let store: Store & { url?: string };
let second: Store;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let workspaceId: string;
let endpointId: string;
const quiet = { warn: () => {} };

beforeAll(async () => {
  store = databaseUrl
    ? await createThrowawayStore(databaseUrl, "junction_test")
    : await createStore({ dataDir: null });
  second = store.url ? await createStore({ databaseUrl: store.url, dataDir: null }) : store;
  receiver = await startWebhookReceiver();
  workspaceId = (await createWorkspace(store.db, { name: "hooks", builderCode: "hooks-ws" })).id;
  endpointId = (
    await addWebhookEndpoint(store.db, { allowHttp: true, allowPrivate: true }, workspaceId, {
      url: receiver.url,
    })
  ).endpoint.id;
});
afterAll(async () => {
  await receiver?.close();
  if (second !== store) await second?.close();
  await store?.close();
});

const events = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) =>
    envelope(
      { id: `evt_${tag}_${i}`, type: "settlement.finalized", workspaceId, quoteId: null, data: { i } },
      new Date(),
    ),
  );

describe("the webhook outbox shared by several processes", () => {
  it("delivers each delivery once between two senders", async () => {
    await insertEvents(store.db, events(120, "many"));
    const senders = [store, second].map((s) =>
      startWebhookSender({
        db: s.db,
        allowPrivate: true,
        signal: createOutboxSignal(),
        logger: quiet,
        pollMs: 50,
        concurrency: 8,
      }),
    );
    await receiver.until((received) => received.length >= 120, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(senders.map((sender) => sender.stop()));
    const ids = receiver.received.map((delivery) => delivery.headers["junction-delivery-id"]);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    const log = await deliveriesOf(store.db, endpointId, 500);
    expect(log.filter((entry) => entry.status === "delivered")).toHaveLength(120);
    expect(log.every((entry) => entry.attempts === 1)).toBe(true);
  });

  it("sends again a delivery whose claimer died before recording it, once the claim expires", async () => {
    const before = receiver.received.length;
    await insertEvents(store.db, events(1, "orphan"));
    // A process claims it for one second and dies.
    const claimed = await claimDueDeliveries(second.db, 10, 1);
    expect(claimed).toHaveLength(1);
    const sender = startWebhookSender({
      db: store.db,
      allowPrivate: true,
      signal: createOutboxSignal(),
      logger: quiet,
      pollMs: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.length).toBe(before);
    await receiver.until((received) => received.length === before + 1, 10_000);
    await sender.stop();
    expect(receiver.received.at(-1)!.headers["junction-event-id"]).toBe("evt_orphan_0");
  });

  it("sleeps until the next retry is due, and wakes at once for what its own process writes", async () => {
    const before = receiver.received.length;
    const signal = createOutboxSignal();
    // A poll interval far beyond the test: only the retry's due time and the signal can wake the sender.
    const sender = startWebhookSender({
      db: store.db,
      allowPrivate: true,
      signal,
      logger: quiet,
      pollMs: 600_000,
      retryScale: 1 / 5,
    });
    try {
      receiver.answer(500);
      await insertEvents(store.db, events(1, "retried"));
      signal.notify();
      await receiver.until((received) => received.length === before + 1, 10_000);
      // The second attempt falls due about a second later (5 s divided by 5, with jitter).
      await receiver.until((received) => received.length === before + 2, 10_000);
      const attempts = receiver.received.slice(before);
      expect(attempts.map((delivery) => delivery.headers["junction-event-id"])).toEqual([
        "evt_retried_0",
        "evt_retried_0",
      ]);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThan(500);
      await insertEvents(store.db, events(1, "woken"));
      signal.notify();
      await receiver.until((received) => received.length === before + 3, 10_000);
    } finally {
      await sender.stop();
    }
  });

  it("writes one event per id, whoever writes it, and fans it out to the endpoints subscribed to its type", async () => {
    const only = await addWebhookEndpoint(store.db, { allowHttp: true, allowPrivate: true }, workspaceId, {
      url: receiver.url,
      eventTypes: ["settlement.reorged"],
    });
    const [event] = events(1, "dup");
    const written = await Promise.all([insertEvents(store.db, [event!]), insertEvents(second.db, [event!])]);
    expect(written.flat()).toEqual([event!.id]);
    const log = await deliveriesOf(store.db, endpointId, 500);
    expect(log.filter((entry) => entry.eventId === event!.id)).toHaveLength(1);
    expect(await deliveriesOf(store.db, only.endpoint.id, 10)).toHaveLength(0);
  });
});
