import type { StageTimings } from "../quote/quote-types.ts";

/**
 * The `Server-Timing` header of a quote: one metric per pipeline stage with its duration in milliseconds
 * (pin, state, search, providers, simulate, rank), so integrators and benchmarks see where the time went.
 * Providers run in parallel with state and search, so the stages overlap and need not add up.
 */
export function serverTiming(timings: StageTimings): string {
  return Object.entries(timings)
    .map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`)
    .join(", ");
}
