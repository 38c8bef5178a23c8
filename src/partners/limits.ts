/** Limits of the partner API's quote (docs/rules.md, limits). */
export const PARTNER_LIMITS = {
  slippageBps: { min: 0, max: 500, default: 50 },
  deadlineSeconds: { max: 3_600, default: 600 },
} as const;
