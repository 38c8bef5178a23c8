/** Limits of the partner API's quote (docs/rules.md, limits). */
export const PARTNER_LIMITS = {
  slippageBps: { min: 0, max: 500, default: 50 },
  deadlineSeconds: { max: 3_600, default: 600 },
} as const;

/** An `x-request-id` the partner API echoes: up to 128 characters of `[A-Za-z0-9._:-]`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
