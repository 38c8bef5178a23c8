/**
 * Limits of transfer estimates (docs/rules.md, limits; the rates and deadlines are ours, docs/rules.md, ours:
 * transfer estimates): each customer key's request rate (per minute window on the shared database clock,
 * counted across every process; a refused request spends nothing), each bridge provider's own deadline, and
 * how long a displayed estimate stays fresh.
 */
export const TRANSFER_LIMITS = {
  ratePerKeyPerMinute: 60,
  /** Each provider is asked under this deadline; one that has not answered is listed as `provider-timeout`. */
  providerDeadlineMs: 3_000,
  /** `expiresAt` is this far after the estimate: when a client should refresh what it displays. */
  estimateTtlMs: 30_000,
  /** Only an immediate transfer is supported (docs/rules.md, transfer estimate rule 6). */
  supportedDelaysSeconds: [0] as readonly number[],
} as const;
