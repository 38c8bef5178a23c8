import { describe, expect, it } from "vitest";
import { createOutboxSignal } from "./outbox-signal.ts";

describe("the outbox signal", () => {
  it("wakes a waiter at the next notify, or lets it time out", async () => {
    const signal = createOutboxSignal();
    const woken = signal.wait(10_000);
    signal.notify();
    expect(await woken).toBe(true);
    expect(await signal.wait(5)).toBe(false);
  });

  it("never loses a notify sent while its listener was busy looking (a webhook written mid-claim)", async () => {
    const signal = createOutboxSignal();
    const since = signal.seen();
    // The listener is reading the outbox when this process writes an event and notifies.
    signal.notify();
    const started = Date.now();
    expect(await signal.wait(60_000, since)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Nothing new since it last looked: it waits as before.
    expect(await signal.wait(5, signal.seen())).toBe(false);
  });
});
