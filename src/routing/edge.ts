import type { Address } from "viem";
import type { MissingState } from "../liquidity/concentrated/pool-state.ts";
import { SwapMathError } from "../liquidity/math/errors.ts";
import type { Ratio } from "../liquidity/math/ratio.ts";
import { type IndexedPool, poolRef } from "../liquidity/pool-index/pool.ts";
import { kindOf } from "../liquidity/pool-kinds.ts";
import type { PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import { marginalRate } from "./marginal-rate.ts";

/** One hop's quote. Anything short of a full fill is unusable for an exact-input route, never rounded up. */
export type HopQuote =
  | { ok: true; amountOut: bigint; ticksCrossed: number }
  | { ok: false; reason: "price-limit" | "incomplete-state" | "zero-output" | "amount-out-of-range" };

/** A pool traversed in one direction: the unit routes are built from. */
export type Edge = {
  pool: IndexedPool;
  /** `poolRef(pool)`, computed once: path enumeration and the split search compare it for every path. */
  poolRef: string;
  /** The currencies as the pool holds them (address(0) for a native V4 leg; WETH for V2/V3). */
  tokenIn: Address;
  tokenOut: Address;
  zeroForOne: boolean;
  quote: (amountIn: bigint) => HopQuote;
  /**
   * The output per unit of input at zero input, after the pool's fee (a float): the best average rate any
   * amount gets, since a pool's output is concave in its input and rounds down (`spotRate`).
   */
  spotRate: number;
  /** The same rate exactly, as a fraction (price impact is measured against it, marginal-rate.ts). */
  marginalRate: Ratio;
};

/**
 * Both directions of a pool over its snapshot. Concentrated pools reuse one stepped path per direction,
 * so quoting many amounts (the split search's curves) costs little more than one. `onIncomplete` hears
 * each time a quote needed state the snapshot did not load (and what), so the caller can load it.
 */
export function edgesOf(
  pool: IndexedPool,
  snapshot: PoolSnapshot,
  onIncomplete?: (missing: MissingState) => void,
): Edge[] {
  const ref = poolRef(pool);
  return [true, false].map((zeroForOne) => {
    const quote = hopQuoter(snapshot, zeroForOne, onIncomplete);
    return {
      pool,
      poolRef: ref,
      tokenIn: zeroForOne ? pool.token0 : pool.token1,
      tokenOut: zeroForOne ? pool.token1 : pool.token0,
      zeroForOne,
      quote,
      spotRate: spotRate(snapshot, zeroForOne),
      marginalRate: marginalRate(snapshot, zeroForOne),
    };
  });
}

/**
 * The marginal rate of a swap at zero input: output per unit of input after the fee, at the current price.
 * Every exact swap gets at most this average rate: the price only moves against the trade as it fills (a
 * V2 curve, ticks crossed), and the pools round every amount in their own favour. A float, exact to about
 * 1e-15 relative: callers bounding with it leave a margin.
 */
export function spotRate(snapshot: PoolSnapshot, zeroForOne: boolean): number {
  return kindOf(snapshot).spotRate(snapshot, zeroForOne);
}

/**
 * One direction's quotes, each amount quoted once: paths that share their first hops reach those hops with
 * the same amounts (a split search reads hundreds of paths at the same shares of one input), so every
 * later read is a lookup. The memo lives as long as the edge, which is built from one block's snapshot for
 * one quote (docs/rules.md, comparison rule 14: nothing outlives the quote). A quote that ran short of
 * loaded state is not kept, so each such read still reports what was missing.
 */
function hopQuoter(
  snapshot: PoolSnapshot,
  zeroForOne: boolean,
  onIncomplete: ((missing: MissingState) => void) | undefined,
): (amountIn: bigint) => HopQuote {
  const quote = exactQuoter(snapshot, zeroForOne, onIncomplete);
  const quoted = new Map<bigint, HopQuote>();
  return (amountIn) => {
    const known = quoted.get(amountIn);
    if (known) return known;
    let hop: HopQuote;
    try {
      hop = quote(amountIn);
    } catch (error) {
      // The pool itself would refuse the amount (V3 int256, V4 int128): not a route, not a failure.
      if (!(error instanceof SwapMathError && error.code === "invalidAmount")) throw error;
      hop = { ok: false, reason: "amount-out-of-range" };
    }
    if (hop.ok || hop.reason !== "incomplete-state") quoted.set(amountIn, hop);
    return hop;
  };
}

function exactQuoter(
  snapshot: PoolSnapshot,
  zeroForOne: boolean,
  onIncomplete: ((missing: MissingState) => void) | undefined,
): (amountIn: bigint) => HopQuote {
  const path = kindOf(snapshot).exactIn(snapshot, zeroForOne);
  return (amountIn) => {
    const result = path(amountIn);
    if (result.status === "incomplete") {
      onIncomplete?.(result.missing);
      return { ok: false, reason: "incomplete-state" };
    }
    if (result.status === "priceLimit") return { ok: false, reason: "price-limit" };
    if (result.amountOut === 0n) return { ok: false, reason: "zero-output" };
    return { ok: true, amountOut: result.amountOut, ticksCrossed: result.ticksCrossed };
  };
}

/** Routing treats native ETH and WETH as one asset: the executor wraps and unwraps between hops. */
export function assetKey(token: Address, weth: Address): string {
  return ZERO_ADDRESS.test(token) ? weth.toLowerCase() : token.toLowerCase();
}

/** The zero address in any spelling (no number parsed: path enumeration asks this for every edge it walks). */
const ZERO_ADDRESS = /^0x0{40}$/i;
