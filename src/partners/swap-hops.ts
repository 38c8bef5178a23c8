import { type Address, zeroAddress } from "viem";
import { poolRef } from "../liquidity/pool-index/pool.ts";
import type { Assessment } from "../quote/quote-types.ts";

/** One pool swap of a partner quote's route (docs/rules.md, partner quote rule 8). */
export type PartnerSwapHop = {
  /** Pool address (V2, V3) or pool id (V4). */
  pool: string;
  /** Where the liquidity lives. */
  source: "uniswap-v2" | "uniswap-v3" | "uniswap-v4";
  /** The pool's curve. */
  kind: "constant-product" | "concentrated-liquidity";
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  amountOut: bigint;
};

/**
 * The selected route's pool swaps in execution order (branch by branch, hop by hop), native ETH hops shown as
 * the wrapped token, addresses lowercased.
 */
export function swapHops(selected: Assessment, weth: Address): PartnerSwapHop[] {
  const wrapped = (token: Address) => (token === zeroAddress ? weth : token).toLowerCase() as Address;
  return selected.branches.flatMap((branch) =>
    branch.hops.map((hop) => ({
      pool: poolRef(hop.pool),
      source: `uniswap-${hop.pool.kind}` as const,
      kind: hop.pool.kind === "v2" ? ("constant-product" as const) : ("concentrated-liquidity" as const),
      tokenIn: wrapped(hop.tokenIn),
      tokenOut: wrapped(hop.tokenOut),
      amountIn: hop.amountIn,
      amountOut: hop.amountOut,
    })),
  );
}
