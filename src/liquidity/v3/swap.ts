import { ExactInPath } from "../concentrated/exact-in-path.ts";
import { type ExactInResult, swapExactIn } from "../concentrated/swap-exact-in.ts";
import { SwapMathError } from "../math/errors.ts";
import type { V3PoolSnapshot } from "./snapshot.ts";

/** UniswapV3Pool.swap takes `amountSpecified` as an int256 (QuoterV2 casts with `toInt256`). */
const MAX_AMOUNT_IN = (1n << 255n) - 1n;

function checkAmount(amountIn: bigint): void {
  if (amountIn <= 0n || amountIn > MAX_AMOUNT_IN)
    throw new SwapMathError("invalidAmount", "V3 input must be in (0, 2^255)");
}

/**
 * Exact-input swap of `amountIn` on a V3 snapshot, wei-exact with QuoterV2.quoteExactInputSingle
 * (no price limit): its `amountOut`, `sqrtPriceX96After` and tick equal `after` here.
 */
export function quoteV3ExactIn(pool: V3PoolSnapshot, zeroForOne: boolean, amountIn: bigint): ExactInResult {
  checkAmount(amountIn);
  return swapExactIn(pool, "v3", zeroForOne, BigInt(pool.fee), amountIn);
}

/** A reusable quoter for many amounts on one V3 pool and direction (see `ExactInPath`). */
export function v3ExactInPath(
  pool: V3PoolSnapshot,
  zeroForOne: boolean,
): (amountIn: bigint) => ExactInResult {
  const path = new ExactInPath(pool, "v3", zeroForOne, BigInt(pool.fee));
  return (amountIn) => {
    checkAmount(amountIn);
    return path.quote(amountIn);
  };
}

/** `quoteV3ExactIn` for each amount, sharing one stepped path; results in the order of `amounts`. */
export function quoteManyV3(
  pool: V3PoolSnapshot,
  zeroForOne: boolean,
  amounts: readonly bigint[],
): ExactInResult[] {
  return amounts.map(v3ExactInPath(pool, zeroForOne));
}
