import { createPublicClient, http, type PublicClient, type Transport } from "viem";
import { junctionChain } from "./chain.ts";
import { type CoalescingStats, coalescingTransport } from "./coalescing-transport.ts";
import { finalityTransport } from "./finality-transport.ts";
import { hedgedTransport } from "./hedged-transport.ts";
import { observedTransport, type RpcObserver } from "./observed-transport.ts";
import { deadlineTransport } from "./request-deadline.ts";
import { tallyHttpRequest, tallyRpc } from "./rpc-tally.ts";

export type RpcSettings = {
  url: string;
  /**
   * `private` never falls back; `public` may hedge to one backup after 250 ms
   * (docs/rules.md, comparison rule 15).
   */
  kind: "private" | "public";
  backupUrl?: string;
};

/** A public transport may try its one backup RPC after this delay (docs/rules.md, comparison rule 15). */
export const BACKUP_RPC_DELAY_MS = 250;

/**
 * Most JSON-RPC calls one HTTP request carries: calls made in the same turn of the event loop (a quote's
 * simulations of every candidate and its canonical-block check) travel as one JSON-RPC batch, one request
 * and one round trip to the node. Hosted nodes cap batches (often at 50 to 1,000 calls); a quote sends
 * fewer than this.
 */
export const RPC_BATCH_SIZE = 32;

/** Timeout of one RPC call made outside any request (the indexers follow the chain in the background). */
const RPC_TIMEOUT_MS = 10_000;
/**
 * Timeout of one RPC call made on a request's behalf, within what is left of the request's budget: a
 * healthy node answers the largest call of a quote in well under a second, and a frozen one must cost a
 * request seconds, not tens of seconds, and free its search slot (see request-deadline.ts).
 */
export const REQUEST_RPC_TIMEOUT_MS = 4_000;

/**
 * The service's one chain client, whose `finalized` tag is the service's finalized head: coalescing of
 * identical in-flight reads over either a private transport (one endpoint, never a public fallback) or a
 * public one hedged to a single backup, each call on a request's behalf bounded by the request's budget.
 */
export function createChainClient(
  settings: RpcSettings,
  options: {
    stats?: CoalescingStats;
    observe?: RpcObserver;
    /** Unset: the node's `finalized` tag; N: `latest − N` answers it (see finality-transport.ts). */
    finalityConfirmations?: number | undefined;
  } = {},
): PublicClient {
  const endpoint = (url: string) =>
    http(url, {
      timeout: RPC_TIMEOUT_MS,
      retryCount: 0,
      batch: { batchSize: RPC_BATCH_SIZE, wait: 0 },
      // Counted as sent (an `onFetchRequest` hook would make viem build a Request object per request).
      fetchFn: (input, init) => {
        tallyHttpRequest();
        return fetch(input, init);
      },
    });
  let transport: Transport = endpoint(settings.url);
  if (settings.kind === "public" && settings.backupUrl) {
    transport = hedgedTransport({
      primary: transport,
      backup: endpoint(settings.backupUrl),
      delayMs: BACKUP_RPC_DELAY_MS,
    });
  }
  return createPublicClient({
    chain: junctionChain(settings.url),
    // Observed after coalescing: what reaches the node, one count per request actually sent (metrics, and
    // each quote's own count, rpc-tally.ts).
    transport: deadlineTransport(
      coalescingTransport(
        finalityTransport(
          observedTransport(transport, bothObservers(tallyRpc, options.observe)),
          options.finalityConfirmations,
        ),
        options.stats,
        // No request-path caller waits longer for a call: a read pending past that is left hanging.
        REQUEST_RPC_TIMEOUT_MS,
      ),
      REQUEST_RPC_TIMEOUT_MS,
    ),
    cacheTime: 0,
    batch: { multicall: false },
  }) as PublicClient;
}

/** Two observers as one (the second optional). */
function bothObservers(first: RpcObserver, second: RpcObserver | undefined): RpcObserver {
  if (!second) return first;
  return (method) => {
    const [a, b] = [first(method), second(method)];
    return (outcome) => {
      a(outcome);
      b(outcome);
    };
  };
}
