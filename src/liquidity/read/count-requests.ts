import { custom, type Transport } from "viem";

export type RequestCounts = { total: number; byMethod: Map<string, number> };

/**
 * Wraps a transport to count the JSON-RPC requests that go through it, by method: how tests and the
 * benchmark check the round trips the loader claims, independently of its own bookkeeping.
 */
export function countRequests(transport: Transport): { transport: Transport; counts: RequestCounts } {
  const counts: RequestCounts = { total: 0, byMethod: new Map() };
  const wrapped: Transport = (parameters) => {
    const inner = transport(parameters);
    return custom(
      {
        request: (args: { method: string; params?: unknown }) => {
          counts.total += 1;
          counts.byMethod.set(args.method, (counts.byMethod.get(args.method) ?? 0) + 1);
          return inner.request(args as never);
        },
      },
      { retryCount: 0 },
    )(parameters);
  };
  return { transport: wrapped, counts };
}
