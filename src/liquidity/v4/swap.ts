import { ExactInPath } from "../concentrated/exact-in-path.ts";
import { type ExactInResult, swapExactIn } from "../concentrated/swap-exact-in.ts";
import { SwapMathError } from "../math/errors.ts";
import type { V4PoolSnapshot } from "./snapshot.ts";
import { v4SwapFee } from "./swap-fee.ts";

/**
 * V4Quoter takes a uint128 and negates it through int128, and the PoolManager returns int128 deltas, so an
 * input must stay below 2^127.
 */
const MAX_AMOUNT_IN = (1n << 127n) - 1n;

function checkAmount(amountIn: bigint): void {
  if (amountIn <= 0n || amountIn > MAX_AMOUNT_IN)
    throw new SwapMathError("invalidAmount", "V4 input must be in (0, 2^127)");
}

/**
 * Exact-input swap of `amountIn` on a V4 snapshot, wei-exact with V4Quoter.quoteExactInputSingle for a
 * `filled` result. A `priceLimit` result is what the PoolManager would swap; V4Quoter reverts with
 * `NotEnoughLiquidity` instead.
 */
export function quoteV4ExactIn(pool: V4PoolSnapshot, zeroForOne: boolean, amountIn: bigint): ExactInResult {
  checkAmount(amountIn);
  return swapExactIn(pool, "v4", zeroForOne, v4SwapFee(pool, zeroForOne), amountIn);
}

/** A reusable quoter for many amounts on one V4 pool and direction (see `ExactInPath`). */
export function v4ExactInPath(
  pool: V4PoolSnapshot,
  zeroForOne: boolean,
): (amountIn: bigint) => ExactInResult {
  const path = new ExactInPath(pool, "v4", zeroForOne, v4SwapFee(pool, zeroForOne));
  return (amountIn) => {
    checkAmount(amountIn);
    return path.quote(amountIn);
  };
}

/** `quoteV4ExactIn` for each amount, sharing one stepped path; results in the order of `amounts`. */
export function quoteManyV4(
  pool: V4PoolSnapshot,
  zeroForOne: boolean,
  amounts: readonly bigint[],
): ExactInResult[] {
  return amounts.map(v4ExactInPath(pool, zeroForOne));
}
