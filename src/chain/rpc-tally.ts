import { AsyncLocalStorage } from "node:async_hooks";
import type { RpcObserver } from "./observed-transport.ts";

/**
 * What one unit of work (a quote) asked of the node: JSON-RPC calls actually sent (after coalescing, so a
 * read shared with another caller counts for whoever sent it); HTTP requests, which carry those calls (calls
 * made together travel as one JSON-RPC batch, create-chain-client.ts), counted for the work whose call
 * opened the batch; and round trips, the busy periods in which at least one of its calls was in flight:
 * calls sent in parallel share one, a call sent after the previous ones ended starts another. On a node
 * 50 ms away, round trips times 50 ms is the floor of the work's wall time.
 */
export type RpcCount = {
  calls: number;
  requests: number;
  roundTrips: number;
  /** The method of the call that opened each round trip, in order (what made a quote wait again). */
  openedBy?: string[];
};

type Tally = Required<RpcCount> & { inFlight: number };

const current = new AsyncLocalStorage<Tally>();

/** Runs `work`, counting the requests it (and whatever it awaits) sends through a tallied client. */
export async function countRpc<T>(work: () => Promise<T>): Promise<{ value: T; rpc: RpcCount }> {
  const tally: Tally = { calls: 0, requests: 0, roundTrips: 0, openedBy: [], inFlight: 0 };
  const value = await current.run(tally, work);
  const { calls, requests, roundTrips, openedBy } = tally;
  return { value, rpc: { calls, requests, roundTrips, openedBy } };
}

/**
 * The observer that feeds {@link countRpc}: a request sent outside any counted work (the indexers in the
 * background) is not counted.
 */
export const tallyRpc: RpcObserver = (method) => {
  const tally = current.getStore();
  if (!tally) return () => {};
  tally.calls += 1;
  if (tally.inFlight === 0) {
    tally.roundTrips += 1;
    tally.openedBy.push(method);
  }
  tally.inFlight += 1;
  return () => {
    tally.inFlight -= 1;
  };
};

/**
 * Counts one HTTP request to the node for the counted work it is sent for (the transport's `onFetchRequest`:
 * a batch is sent in the context of the call that opened it).
 */
export function tallyHttpRequest(): void {
  const tally = current.getStore();
  if (tally) tally.requests += 1;
}
