import { describe, expect, it } from "vitest";
import { watchDatabase } from "./database-readiness.ts";

describe("watchDatabase", () => {
  it("asks once for concurrent probes and reuses the answer for a while", async () => {
    let asked = 0;
    const answers = watchDatabase(
      async () => {
        asked++;
      },
      { reuseMs: 60_000 },
    );
    expect(await Promise.all([answers(), answers(), answers()])).toEqual([true, true, true]);
    expect(await answers()).toBe(true);
    expect(asked).toBe(1);
  });

  it("counts a failure or an answer past the deadline as none, and reports each change once", async () => {
    let mode: "up" | "down" | "stalled" = "up";
    const changes: boolean[] = [];
    const answers = watchDatabase(
      () =>
        mode === "up"
          ? Promise.resolve()
          : mode === "down"
            ? Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))
            : new Promise<void>(() => {}),
      { reuseMs: 0, deadlineMs: 20, onChange: (up) => changes.push(up) },
    );
    expect(await answers()).toBe(true);
    mode = "down";
    expect(await answers()).toBe(false);
    expect(await answers()).toBe(false);
    mode = "stalled";
    expect(await answers()).toBe(false);
    mode = "up";
    expect(await answers()).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it("counts slow pings as answers for the grace, unanswered pings past it as none", async () => {
    let mode: "up" | "slow" | "stalled" = "slow";
    const changes: boolean[] = [];
    const answers = watchDatabase(
      () =>
        mode === "up"
          ? Promise.resolve()
          : mode === "slow"
            ? new Promise<void>((resolve) => setTimeout(resolve, 60))
            : new Promise<void>(() => {}),
      { reuseMs: 0, deadlineMs: 20, graceMs: 150, onChange: (up) => changes.push(up) },
    );
    // Busy, not gone: the first probe after a start, past the deadline (nothing has failed).
    expect(await answers()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await answers()).toBe(true);
    expect(changes).toEqual([]);
    // No answer for longer than the grace: not ready, reported once; the first answer after it is taken.
    await new Promise((resolve) => setTimeout(resolve, 60));
    mode = "stalled";
    expect(await answers()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await answers()).toBe(false);
    expect(await answers()).toBe(false);
    mode = "up";
    expect(await answers()).toBe(true);
    expect(changes).toEqual([false, true]);
  });
});
