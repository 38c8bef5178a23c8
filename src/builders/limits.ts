import { PLANS } from "../auth/plans.ts";

/** Limits of the builder API (docs/rules.md, limits). */
export const BUILDER_LIMITS = {
  multiPlanInputs: { min: 1, max: 4 },
  multiPlanOutputs: { min: 1, max: 4 },
  outputWeightsTotalBps: 10_000,
  planLegs: { min: 1, max: 16 },
  slippageBps: { min: 1, max: 500 },
  builderFeeBps: { min: 0, max: 50 },
  /** Free plan: builder quotes per minute, shared across a workspace's keys (the plan is auth/plans.ts). */
  freePlanQuotesPerMinute: PLANS.free.quotesPerMinute,
  historyPageBlocks: 1_000,
  historyPageEvents: 1_000,
  historyCursorMaxLength: 1_500,
  /** A builder quote whose route's price impact is above this many bps carries a warning naming it. */
  priceImpactWarningBps: 300,
} as const;

/** How long a builder quote can be turned into a swap preparation (`expiresAt`), and the prepared
 * transaction's own deadline after the quote (it reverts after it). */
export const BUILDER_QUOTE_TIMES = {
  quoteTtlSeconds: 120,
  transactionDeadlineSeconds: 600,
  defaultSlippageBps: 50,
} as const;
