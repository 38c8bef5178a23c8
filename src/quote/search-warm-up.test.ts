import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import { warmUpTrades } from "./search-warm-up.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

describe("warm-up trades", () => {
  it("pairs the most connected tokens whose depth is known, at fractions of the input's deepest pool", () => {
    const [hub, other, tail, unknown] = [addr(1), addr(2), addr(3), addr(4)];
    const pool = (n: number, token0: Address, token1: Address) =>
      ({ kind: "v2", address: addr(0x100 + n), token0, token1 }) as unknown as IndexedPool;
    const pools = [
      pool(0, hub, other),
      pool(1, hub, tail),
      pool(2, hub, unknown),
      pool(3, other, unknown),
      pool(4, hub, other),
    ];
    // Depths: 1e6 of each token per pool and 3e6 of the hub in pool 4; nothing known of `unknown`.
    const depthOf = (p: IndexedPool, side: 0 | 1) => {
      const token = side === 0 ? p.token0 : p.token1;
      if (token === unknown) return undefined;
      return p === pools[4] && token === hub ? 3e6 : 1e6;
    };
    const trades = warmUpTrades(pools, depthOf);
    const pairs = [...new Set(trades.map((t) => `${t.tokenIn}>${t.tokenOut}`))];
    // By pool count: hub (4), other (3), tail (1); `unknown` (2) has no depth and is left out.
    expect(pairs).toEqual([
      `${hub}>${other}`,
      `${hub}>${tail}`,
      `${other}>${hub}`,
      `${other}>${tail}`,
      `${tail}>${hub}`,
      `${tail}>${other}`,
    ]);
    // Each pair's sizes together, smallest first, from the input token's deepest pool.
    expect(trades.slice(0, 3).map((t) => t.amountIn)).toEqual([300n, 3_000n, 30_000n]);
    expect(trades.slice(6, 9).map((t) => t.amountIn)).toEqual([100n, 1_000n, 10_000n]);
  });
});
