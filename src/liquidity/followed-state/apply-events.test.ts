import { describe, expect, it } from "vitest";
import type { V3PoolSnapshot } from "../v3/snapshot.ts";
import { applyEvents } from "./apply-events.ts";

const pool: V3PoolSnapshot = {
  kind: "v3",
  address: "0x00000000000000000000000000000000000000a3",
  blockNumber: 7n,
  sqrtPriceX96: 2n ** 96n,
  tick: 0,
  liquidity: 100n,
  tickSpacing: 10,
  bitmap: { from: -2, to: 1, words: new Map([[-1, 1n << 255n]]) },
  liquidityNet: new Map([[-10, 100n]]),
  liquidityGross: new Map([[-10, 100n]]),
  fee: 3000,
};

describe("applyEvents", () => {
  it("adds a position's liquidity to its ticks, their bits and the in-range liquidity (tickLower <= tick)", () => {
    const next = applyEvents(pool, [{ name: "liquidity", tickLower: 0, tickUpper: 20, delta: 7n }], 8n);
    expect(next).toMatchObject({ liquidity: 107n, blockNumber: 8n });
    const state = next as V3PoolSnapshot;
    expect(state.liquidityGross?.get(0)).toBe(7n);
    expect(state.liquidityNet.get(0)).toBe(7n);
    expect(state.liquidityGross?.get(20)).toBe(7n);
    expect(state.liquidityNet.get(20)).toBe(-7n);
    expect(state.bitmap.words.get(0)).toBe((1n << 0n) | (1n << 2n));
    expect(state.bitmap).toMatchObject({ from: -2, to: 1 });
    // Never mutates the state it was given.
    expect(pool.liquidityNet.has(0)).toBe(false);
    expect(pool.liquidityGross?.has(0)).toBe(false);
    expect(pool.bitmap.words.has(0)).toBe(false);
  });

  it("clears a tick a burn empties, and leaves ticks outside the held words alone", () => {
    const next = applyEvents(
      pool,
      [{ name: "liquidity", tickLower: -10, tickUpper: 1_000_000, delta: -100n }],
      8n,
    ) as V3PoolSnapshot;
    expect(next.liquidityNet.has(-10)).toBe(false);
    expect(next.liquidityGross?.has(-10)).toBe(false);
    expect(next.bitmap.words.has(-1)).toBe(false);
    expect(next.liquidity).toBe(0n);
    expect(next.liquidityNet.size).toBe(0);
  });

  it("takes a swap's price, tick and liquidity as its event gives them; refuses what the pool cannot do", () => {
    const next = applyEvents(pool, [{ name: "price", sqrtPriceX96: 5n, tick: -7, liquidity: 3n }], 8n);
    expect(next).toMatchObject({ sqrtPriceX96: 5n, tick: -7, liquidity: 3n });
    expect(() => applyEvents(pool, [{ name: "sync", reserve0: 1n, reserve1: 1n }], 8n)).toThrow();
    expect(() =>
      applyEvents(pool, [{ name: "liquidity", tickLower: -10, tickUpper: 10, delta: -101n }], 8n),
    ).toThrow();
  });

  it("refuses a liquidity change on a state read without its gross liquidity (a quote's read)", () => {
    const { liquidityGross: _, ...read } = pool;
    expect(() =>
      applyEvents(read, [{ name: "liquidity", tickLower: 0, tickUpper: 20, delta: 7n }], 8n),
    ).toThrow(/gross/);
  });
});
