import type { RpcCount } from "../chain/rpc-tally.ts";
import type { StageTimings } from "../quote/quote-types.ts";

/**
 * The `Server-Timing` header of a quote: one metric per pipeline stage with its duration in milliseconds
 * (pin, state, search, providers, simulate, rank), so integrators and benchmarks see where the time went,
 * then what the quote asked of the node: `rpc-calls` (JSON-RPC calls sent), `rpc-requests` (the HTTP
 * requests that carried them: calls made together travel as one batch) and `rpc-round-trips` (busy periods:
 * parallel calls share one), each as its `desc`; a quote of more than one round trip also names the method
 * that opened each (`rpc-round-trip-openers`, space-separated), so a slow one says what it waited on.
 * Providers run in parallel with state and search, so the stages overlap and need not add up.
 */
export function serverTiming(timings: StageTimings, rpc?: RpcCount): string {
  const stages = Object.entries(timings).map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`);
  const counts = rpc
    ? [
        `rpc-calls;desc="${rpc.calls}"`,
        `rpc-requests;desc="${rpc.requests}"`,
        `rpc-round-trips;desc="${rpc.roundTrips}"`,
        ...(rpc.roundTrips > 1 && rpc.openedBy
          ? [`rpc-round-trip-openers;desc="${rpc.openedBy.join(" ")}"`]
          : []),
      ]
    : [];
  return [...stages, ...counts].join(", ");
}
