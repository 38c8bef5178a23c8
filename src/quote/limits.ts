import { PROVIDER_DEADLINE_MS } from "../config/config.ts";
/**
 * The limits the quote pipeline itself enforces (docs/rules.md, limits and comparison rule 11): admission of the
 * public quote (admission.ts), the pool cap of one comparison (select-pools.ts, and the fallback probe's
 * merge in create-quoter.ts) and the deadline of simulated calldata (service-candidate.ts,
 * through-executor.ts). The search, probe and transport limits live with the code that enforces them
 * (routing/limits.ts, liquidity/pool-index/fallback-probe.ts, chain/create-chain-client.ts); the config
 * route publishes them together.
 */
export const QUOTE_LIMITS = {
  /** Expensive requests are answered by 503 QUOTE_TIMEOUT after this long. */
  deadlineMs: 25_000,
  /** Concurrent searches per process ("isolate"); beyond it 429 BUSY with Retry-After 2. */
  concurrency: 4,
  /** Admissions per minute per process; beyond it 429 BUSY with the seconds left in the window. */
  admissionsPerMinute: 60,
  /** Admission and in-flight search ownership expire after this long. */
  admissionTtlMs: 60_000,
  /** Pools one comparison may load, fallback-probed V4 pools included. */
  maxPools: 96,
  /** Each third-party provider's default deadline (JUNCTION_PROVIDER_DEADLINE_MS sets it). */
  providerDeadlineMs: PROVIDER_DEADLINE_MS.default,
  /**
   * How long Junction's own candidates wait for the providers' before they are simulated on their own
   * (create-quoter.ts): within it, all travel in one round trip; past it, a stalled node fails the quote
   * within its per-call deadline instead of after the providers' deadline and then it.
   */
  ownSimulationHoldMs: 250,
} as const;

/**
 * Seconds of validity given to calldata simulated for a quote without execution terms (the public quote,
 * a partner quote without recipient); a quote with terms builds its candidates with their own deadline.
 */
export const SIMULATION_DEADLINE_S = 600n;
