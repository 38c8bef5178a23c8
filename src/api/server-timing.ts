import type { RpcCount } from "../chain/rpc-tally.ts";
import type { StageTimings } from "../quote/quote-types.ts";

/**
 * The `Server-Timing` header of a quote: one metric per pipeline stage with its duration in milliseconds
 * (pin, state, search, providers, simulate, rank), so integrators and benchmarks see where the time went,
 * then what the quote asked of the node: `rpc-calls` (JSON-RPC calls sent), `rpc-requests` (the HTTP
 * requests that carried them: calls made together travel as one batch) and `rpc-round-trips` (busy periods:
 * parallel calls share one), each as its `desc`. Providers run in parallel with state and
 * search, so the stages overlap and need not add up.
 */
export function serverTiming(timings: StageTimings, rpc?: RpcCount): string {
  const stages = Object.entries(timings).map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`);
  const counts = rpc
    ? [
        `rpc-calls;desc="${rpc.calls}"`,
        `rpc-requests;desc="${rpc.requests}"`,
        `rpc-round-trips;desc="${rpc.roundTrips}"`,
      ]
    : [];
  return [...stages, ...counts].join(", ");
}
