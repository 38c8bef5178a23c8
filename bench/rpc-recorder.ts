import { custom, type Transport } from "viem";

/**
 * One JSON-RPC request as the HTTP transport saw it: its method, the `to` of a call or estimate, and when it
 * was in flight (performance.now ms). Not its parameters: a benchmark keeps thousands of these, and holding
 * every request's calldata would grow the heap the measured code runs in.
 */
export type RecordedRequest = { method: string; to: string | undefined; start: number; end: number };

/**
 * Wraps a transport to record every request that goes through it with its start and end time: the
 * latency benchmark puts it between the coalescing layer and HTTP, so it sees exactly the HTTP requests.
 */
export function recordRequests(transport: Transport): { transport: Transport; log: RecordedRequest[] } {
  const log: RecordedRequest[] = [];
  const wrapped: Transport = (parameters) => {
    const inner = transport(parameters);
    return custom(
      {
        request: async (args: { method: string; params?: unknown }) => {
          const entry = {
            method: args.method,
            to: (args.params as [{ to?: unknown }] | undefined)?.[0]?.to?.toString().toLowerCase(),
            start: performance.now(),
            end: Number.NaN,
          };
          log.push(entry);
          try {
            return await inner.request(args as never);
          } finally {
            entry.end = performance.now();
          }
        },
      },
      { retryCount: 0 },
    )(parameters);
  };
  return { transport: wrapped, log };
}

/**
 * Round trips: the busy periods of the transport, i.e. how many times the caller waited on the network
 * with nothing already in flight. Requests that overlap count once, so parallel reads are one round trip;
 * a chain of dependent reads is one per link. A lower bound on sequential waits: a chain running beside a
 * longer request (another branch of the pipeline) would not show; `longestChain` is the upper bound. Also
 * returns the total time with a request in flight.
 */
export function roundTrips(requests: readonly RecordedRequest[]): { roundTrips: number; networkMs: number } {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  let roundTrips = 0;
  let networkMs = 0;
  let busyUntil = Number.NEGATIVE_INFINITY;
  let busyFrom = 0;
  for (const { start, end } of sorted) {
    if (start > busyUntil) {
      if (roundTrips > 0) networkMs += busyUntil - busyFrom;
      roundTrips++;
      busyFrom = start;
      busyUntil = end;
    } else if (end > busyUntil) busyUntil = end;
  }
  if (roundTrips > 0) networkMs += busyUntil - busyFrom;
  return { roundTrips, networkMs };
}

/**
 * The longest chain of requests in which each starts after the previous one ended: an upper bound on
 * sequential waits (it counts every earlier completion as a cause, which two independent parallel chains
 * are not). `roundTrips` is the matching lower bound; the pipeline's true depth lies between them.
 */
export function longestChain(requests: readonly RecordedRequest[]): number {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((request, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= request.start) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}
