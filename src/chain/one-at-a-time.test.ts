import { describe, expect, it } from "vitest";
import { oneAtATime } from "./one-at-a-time.ts";

describe("oneAtATime", () => {
  it("runs work in order, never overlapping, a failure not stopping what is queued behind it", async () => {
    const queue = oneAtATime();
    const log: string[] = [];
    let active = 0;
    const work = (name: string, fail = false) =>
      queue(async () => {
        active += 1;
        expect(active).toBe(1);
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        active -= 1;
        if (fail) throw new Error(name);
        return name;
      });
    const outcomes = await Promise.allSettled([work("a"), work("b", true), work("c")]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("is idle once everything queued so far has settled", async () => {
    const queue = oneAtATime();
    let done = false;
    void queue(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      done = true;
    });
    await queue.idle();
    expect(done).toBe(true);
  });
});
