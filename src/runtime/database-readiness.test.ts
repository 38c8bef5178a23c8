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
});
