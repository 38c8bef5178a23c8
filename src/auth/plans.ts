/**
 * Workspace plans (docs/rules.md, limits and auth rule 6). The free plan's builder-quote rate is the rules'
 * 10 per minute shared across the workspace's keys; the other figures are ours
 * (docs/rules.md, ours: workspace plans) and are listed in docs/api/builders.md and by `GET /api/v2/builders/usage`.
 */
export const PLANS = {
  free: { quotesPerMinute: 10, receiptsPerMinute: 60, tokensPerMinute: 60, requestsPerHour: 1_000 },
  growth: { quotesPerMinute: 120, receiptsPerMinute: 600, tokensPerMinute: 600, requestsPerHour: 20_000 },
} as const;

export type WorkspacePlanName = keyof typeof PLANS;
export type WorkspacePlan = (typeof PLANS)[WorkspacePlanName];

/** The quota a builder endpoint draws from: quotes and plans share one, receipts and history another, tokens/profile/usage a third. */
export type QuotaBucket = "quote" | "receipts" | "tokens";

/**
 * Swap and registry-transaction preparation spend the hourly allowance only: each one follows a quote that
 * already spent the per-minute quote quota.
 */
export type MeteredBucket = QuotaBucket | "swap";

export function planOf(name: string): WorkspacePlan {
  return name in PLANS ? PLANS[name as WorkspacePlanName] : PLANS.free;
}

export function perMinuteLimit(plan: WorkspacePlan, bucket: QuotaBucket): number {
  if (bucket === "quote") return plan.quotesPerMinute;
  if (bucket === "receipts") return plan.receiptsPerMinute;
  return plan.tokensPerMinute;
}
