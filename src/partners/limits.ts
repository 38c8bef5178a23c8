/**
 * Limits of the partner API (docs/rules.md, limits): the quote's terms, and each key's request rate. The
 * rates are ours (docs/rules.md, ours: partner rate limits): per key, per minute window on the shared
 * database clock, counted across every process; a refused request spends nothing.
 */
export const PARTNER_LIMITS = {
  ratePerKeyPerMinute: { quote: 60, tokens: 120 },
  slippageBps: { min: 0, max: 500, default: 50 },
  deadlineSeconds: { max: 3_600, default: 600 },
} as const;
