import { describe, expect, it } from "vitest";
import { createNodePace, NodeThrottledError, retryAfterMs, throttledCause } from "./node-pace.ts";

describe("node pace", () => {
  it("backs off for the node's Retry-After, refusing foreground requests at once and holding background ones", async () => {
    const pace = createNodePace();
    expect(await pace.acquire(true)).toBe(0);
    expect(pace.throttled(300)).toBeGreaterThan(250);
    expect(await pace.acquire(true)).toBeGreaterThan(200);
    const started = Date.now();
    expect(await pace.acquire(false)).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await pace.acquire(true)).toBe(0);
  });

  it("without Retry-After, backs off 1 s doubled per repeat up to 30 s, jittered, until the node answers", () => {
    let clock = 0;
    const pauses = (random: number) => {
      const pace = createNodePace({ now: () => clock, random: () => random });
      const seen: number[] = [];
      for (let i = 0; i < 7; i++) {
        seen.push(pace.throttled(undefined));
        clock += 100_000;
      }
      pace.answered();
      seen.push(pace.throttled(undefined));
      return seen;
    };
    expect(pauses(0.5)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 1_000]);
    expect(pauses(0)[0]).toBe(500);
    expect(pauses(0.999)[0]).toBe(1_499);
  });

  it("keeps to a request budget, letting requests for clients go before waiting background ones", async () => {
    const pace = createNodePace({ maxRps: 20 });
    const order: string[] = [];
    const background = Array.from({ length: 30 }, (_, i) =>
      pace.acquire(false).then(() => order.push(`b${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 120));
    const foreground = Array.from({ length: 3 }, (_, i) =>
      pace.acquire(true).then(() => order.push(`f${i}`)),
    );
    const started = Date.now();
    await Promise.all([...background, ...foreground]);
    // 20 go at once (the bucket is a second deep); the other 13 take about 0.65 s at 20 a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const firstForeground = order.indexOf("f0");
    expect(firstForeground).toBeLessThan(order.indexOf("b29"));
    expect(order.slice(firstForeground, firstForeground + 3)).toEqual(["f0", "f1", "f2"]);
  });

  it("reads Retry-After as seconds or a date, and finds a throttle under viem's wrapping", () => {
    expect(retryAfterMs("2")).toBe(2_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
    const throttled = new NodeThrottledError({
      body: { method: "eth_call" },
      url: "http://node",
      retryAfterMs: 5,
    });
    expect(throttledCause(new Error("wrapped", { cause: throttled }))).toBe(throttled);
    expect(throttledCause(new Error("other"))).toBeUndefined();
  });
});
