import { describe, expect, it } from "vitest";
import type { FollowedConcentrated } from "../concentrated/followed.ts";
import { applyEvents } from "./apply-events.ts";

const pool: FollowedConcentrated = {
  kind: "v3",
  sqrtPriceX96: 2n ** 96n,
  tick: 0,
  liquidity: 100n,
  tickSpacing: 10,
  held: { from: -2, to: 1 },
  words: new Map([[-1, 1n << 255n]]),
  ticks: new Map([[-10, { gross: 100n, net: 100n }]]),
  fee: 3000,
  protocolFee: 0,
};

describe("applyEvents", () => {
  it("adds a position's liquidity to its ticks, their bits and the in-range liquidity (tickLower <= tick)", () => {
    const next = applyEvents(pool, [{ name: "liquidity", tickLower: 0, tickUpper: 20, delta: 7n }]);
    expect(next).toMatchObject({ liquidity: 107n });
    const state = next as FollowedConcentrated;
    expect(state.ticks.get(0)).toEqual({ gross: 7n, net: 7n });
    expect(state.ticks.get(20)).toEqual({ gross: 7n, net: -7n });
    expect(state.words.get(0)).toBe((1n << 0n) | (1n << 2n));
    // Never mutates the state it was given.
    expect(pool.ticks.has(0)).toBe(false);
  });

  it("clears a tick a burn empties, and leaves ticks outside the held words alone", () => {
    const next = applyEvents(pool, [
      { name: "liquidity", tickLower: -10, tickUpper: 1_000_000, delta: -100n },
    ]) as FollowedConcentrated;
    expect(next.ticks.has(-10)).toBe(false);
    expect(next.words.has(-1)).toBe(false);
    expect(next.liquidity).toBe(0n);
    expect(next.ticks.size).toBe(0);
  });

  it("takes a swap's price, tick and liquidity as its event gives them; refuses what the pool cannot do", () => {
    const next = applyEvents(pool, [{ name: "price", sqrtPriceX96: 5n, tick: -7, liquidity: 3n }]);
    expect(next).toMatchObject({ sqrtPriceX96: 5n, tick: -7, liquidity: 3n });
    expect(() => applyEvents(pool, [{ name: "sync", reserve0: 1n, reserve1: 1n }])).toThrow();
    expect(() =>
      applyEvents(pool, [{ name: "liquidity", tickLower: -10, tickUpper: 10, delta: -101n }]),
    ).toThrow();
  });
});
