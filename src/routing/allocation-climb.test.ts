import { describe, expect, it } from "vitest";
import { climbAllocation } from "./allocation-climb.ts";

describe("allocation climb", () => {
  // Concave branch outputs (square roots, scaled): the best whole-percent allocation is where the marginal
  // outputs meet, checked against every allocation.
  it("reaches the best whole-percent allocation of concave branches from far away", () => {
    const weights = [1, 4, 9];
    const scoreOf = (parts: [number, number][]) =>
      BigInt(Math.round(parts.reduce((sum, [w, percent]) => sum + w * Math.sqrt(percent), 0) * 1e9));
    let best = 0n;
    for (let x = 1; x < 99; x++)
      for (let y = 1; x + y < 100; y++) {
        const score = scoreOf([
          [1, x],
          [4, y],
          [9, 100 - x - y],
        ]);
        if (score > best) best = score;
      }
    const start: [number, number][] = weights.map((w, i) => [w, [80, 19, 1][i]!]);
    const climbed = climbAllocation({ parts: start, score: scoreOf(start)! }, scoreOf);
    expect(climbed.score).toBe(best);
    expect(climbed.parts.map(([, percent]) => percent).reduce((a, b) => a + b)).toBe(100);
  });

  it("keeps every branch at 1% or more, and off shares that cannot fill", () => {
    const linear = (limit: number) => (parts: [string, number][]) =>
      parts[1]![1] > limit ? undefined : BigInt(parts[0]![1] + 2 * parts[1]![1]);
    const start: [string, number][] = [
      ["a", 90],
      ["b", 10],
    ];
    for (const [limit, expected] of [
      [100, 99],
      [30, 30],
    ] as const) {
      const scoreOf = linear(limit);
      const climbed = climbAllocation({ parts: start, score: scoreOf(start)! }, scoreOf);
      expect(climbed.parts).toEqual([
        ["a", 100 - expected],
        ["b", expected],
      ]);
    }
  });
});
