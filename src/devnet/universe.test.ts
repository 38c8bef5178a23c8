import { describe, expect, it } from "vitest";
import { buildUniverse, NATIVE } from "./universe.ts";

describe("buildUniverse", () => {
  const universe = buildUniverse(4663);

  it("has at least 14 ERC-20s with 6, 8 and 18 decimals, and every awkward kind", () => {
    expect(universe.tokens.length).toBeGreaterThanOrEqual(14);
    expect(new Set(universe.tokens.map((t) => t.decimals))).toEqual(new Set([6, 8, 18]));
    const kinds = new Set(universe.tokens.map((t) => t.kind));
    for (const kind of [
      "fee-on-transfer",
      "solady-layout",
      "erc7201-namespaced",
      "rebasing-shares",
    ] as const) {
      expect(kinds).toContain(kind);
    }
    expect(new Set(universe.tokens.map((t) => t.tier))).toEqual(new Set(["stable", "major", "tail"]));
  });

  it("has at least 100 pools across V2, every V3 fee tier and hook-free V4 keys, native ETH included", () => {
    expect(universe.pools.length).toBeGreaterThanOrEqual(100);
    const v3Fees = new Set(universe.pools.flatMap((p) => (p.kind === "v3" ? [p.fee] : [])));
    expect(v3Fees).toEqual(new Set([100, 500, 3000, 10000]));
    const v4 = universe.pools.filter((p) => p.kind === "v4");
    const hookFree = v4.filter((p) => p.hook === "none");
    expect(new Set(hookFree.map((p) => p.tickSpacing)).size).toBeGreaterThanOrEqual(4);
    expect(hookFree.some((p) => p.token0 === NATIVE || p.token1 === NATIVE)).toBe(true);
    expect(v4.filter((p) => p.hook !== "none").map((p) => p.hook)).toEqual(
      expect.arrayContaining(["swap-hook", "dynamic-fee"]),
    );
    expect(universe.pools.filter((p) => p.kind === "v2").length).toBeGreaterThanOrEqual(20);
  });

  it("puts deep and thin pools side by side on a pair, with small dislocations", () => {
    const wethUsdc = universe.pools.filter((p) => p.token0 === "WETH" && p.token1 === "USDC");
    const depths = wethUsdc.map((p) => p.depthUsd);
    const max = depths.reduce((a, b) => (a > b ? a : b));
    const min = depths.reduce((a, b) => (a < b ? a : b));
    expect(max / min).toBeGreaterThan(100n);
    for (const pool of universe.pools) expect(Math.abs(pool.dislocationBps)).toBeLessThanOrEqual(40);
    expect(new Set(universe.pools.map((p) => p.dislocationBps)).size).toBeGreaterThan(10);
  });

  it("gives V3/V4 pools several overlapping ranges around the price", () => {
    for (const pool of universe.pools) {
      if (pool.kind === "v2") continue;
      expect(pool.ranges.length).toBe(3);
      expect(pool.ranges.reduce((sum, r) => sum + r.share, 0)).toBe(100);
      for (const range of pool.ranges)
        if (!("full" in range)) expect(range.below).toBeGreaterThanOrEqual(pool.tickSpacing);
    }
  });

  it("is deterministic per seed and varies across seeds", () => {
    const json = (seed: number) =>
      JSON.stringify(buildUniverse(seed), (_, v) => (typeof v === "bigint" ? v.toString() : v));
    expect(json(4663)).toBe(json(4663));
    expect(json(4663)).not.toBe(json(1));
  });
});
