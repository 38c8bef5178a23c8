import type { Transport } from "viem";
import { observedTransport } from "../../chain/observed-transport.ts";

export type RequestCounts = { total: number; byMethod: Map<string, number> };

/**
 * Wraps a transport to count the JSON-RPC requests that go through it, by method: how tests and the
 * benchmark check the round trips the loader claims, independently of its own bookkeeping.
 */
export function countRequests(transport: Transport): { transport: Transport; counts: RequestCounts } {
  const counts: RequestCounts = { total: 0, byMethod: new Map() };
  const counted = observedTransport(transport, (method) => {
    counts.total += 1;
    counts.byMethod.set(method, (counts.byMethod.get(method) ?? 0) + 1);
    return () => {};
  });
  return { transport: counted, counts };
}
