/** Limits of the public quote endpoint (docs/rules.md, limits and comparison rules 6, 11, 15). */
export const QUOTE_LIMITS = {
  /** Expensive requests are answered by 503 QUOTE_TIMEOUT after this long. */
  deadlineMs: 25_000,
  /** Concurrent searches per process ("isolate"); beyond it 429 BUSY with Retry-After 2. */
  concurrency: 4,
  /** Admissions per minute per process; beyond it 429 BUSY with the seconds left in the window. */
  admissionsPerMinute: 60,
  /** Admission and in-flight search ownership expire after this long. */
  admissionTtlMs: 60_000,
  maxHops: 3,
  maxSplitBranches: 3,
  splitGridBps: 1_000,
  splitRefinementBps: 100,
  maxPools: 96,
  maxFallbackV4Probes: 28,
  /** A public transport may try one backup RPC after this delay. */
  backupRpcDelayMs: 250,
} as const;
