import { createPublicClient, type PublicClient, type Transport } from "viem";
import { junctionChain } from "./chain.ts";
import { type CoalescingStats, coalescingTransport } from "./coalescing-transport.ts";
import { finalityTransport } from "./finality-transport.ts";
import { hedgedTransport } from "./hedged-transport.ts";
import {
  type BatchLimitChange,
  type BatchLimits,
  DEFAULT_BATCH_LIMITS,
  jsonRpcHttp,
} from "./json-rpc-http.ts";
import { createNodePace } from "./node-pace.ts";
import { observedTransport, type RpcObserver } from "./observed-transport.ts";
import { postJson } from "./post-json.ts";
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
  /** Most calls one request carries (JUNCTION_RPC_MAX_BATCH; 1: no batches); lowered by refusals. */
  maxBatch?: number;
  /** Most bytes one batched request's body carries (JUNCTION_RPC_MAX_BATCH_BYTES); lowered by refusals. */
  maxBatchBytes?: number;
  /** The process's budget of HTTP requests per second to this node (JUNCTION_RPC_MAX_RPS); none by default. */
  maxRps?: number;
};

/** A public transport may try its one backup RPC after this delay (docs/rules.md, comparison rule 15). */
export const BACKUP_RPC_DELAY_MS = 250;

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
    /** Told once per limit the node's refusals taught (a log line for the operator). */
    onBatchLimits?: (change: BatchLimitChange) => void;
    /** Told of each batch split after a refusal and each rate limit the node answered (metrics). */
    onRpcEvent?: (event: "split" | "throttled") => void;
    /** Told once per method the node does not have (a log line for the operator). */
    onMissingMethod?: (method: string) => void;
  } = {},
): PublicClient {
  // Each endpoint keeps what it learned for the life of the client (one client per process).
  const endpoint = (url: string) => {
    const limits: BatchLimits = {
      calls: settings.maxBatch ?? DEFAULT_BATCH_LIMITS.calls,
      bytes: settings.maxBatchBytes ?? DEFAULT_BATCH_LIMITS.bytes,
    };
    return jsonRpcHttp(url, {
      timeoutMs: RPC_TIMEOUT_MS,
      limits,
      pace: createNodePace(settings.maxRps === undefined ? {} : { maxRps: settings.maxRps }),
      // Counted as sent, for the work whose call opened the request (rpc-tally.ts).
      post: (target, body, timeoutMs) => {
        tallyHttpRequest();
        return postJson(target, body, timeoutMs);
      },
      ...(options.onBatchLimits ? { onLearned: options.onBatchLimits } : {}),
      ...(options.onRpcEvent ? { onEvent: options.onRpcEvent } : {}),
      ...(options.onMissingMethod ? { onMissingMethod: options.onMissingMethod } : {}),
    });
  };
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
