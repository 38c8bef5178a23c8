import { maxUint256 } from "viem";

/**
 * The shape of the route search (docs/rules.md, comparison rule 6 and limits): paths of up to 3 hops, splits over up
 * to 3 pool-disjoint branches, a 10% grid then 1% local refinement. The executor's route codec holds routes
 * to the same hop and branch counts.
 */
export const SEARCH_LIMITS = {
  maxHops: 3,
  maxSplitBranches: 3,
  splitGridBps: 1_000,
  splitRefinementBps: 100,
} as const;

/**
 * The exact input a swap takes, the one range every surface checks (the public, builder and partner quotes
 * and each multi-swap input, through `amountInIssue`, at their boundary schemas) and the executor's own
 * `amountIn` (a uint256): 1 to 2^256 − 1 (docs/rules.md, limits). What one pool can take (a V4 swap's
 * int128, a V3 swap's int256) and what one executor branch carries (a uint128) are not this range: they are
 * the pools' and the route codec's own limits, and an amount past them is a route those pools or a single
 * branch cannot serve (no route), not a bad request.
 */
export const AMOUNT_IN = { min: 1n, max: maxUint256 } as const;

/** What an amount outside {@link AMOUNT_IN} is told. */
export const AMOUNT_IN_ISSUE = "must be between 1 and 2^256 - 1";

/** Why `amount` is not an exact input in {@link AMOUNT_IN}, or undefined when it is one. */
export function amountInIssue(amount: bigint): string | undefined {
  return amount >= AMOUNT_IN.min && amount <= AMOUNT_IN.max ? undefined : AMOUNT_IN_ISSUE;
}
