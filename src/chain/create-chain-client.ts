import { createPublicClient, http, type PublicClient, type Transport } from "viem";
import { junctionChain } from "./chain.ts";
import { type CoalescingStats, coalescingTransport } from "./coalescing-transport.ts";
import { hedgedTransport } from "./hedged-transport.ts";
import { observedTransport, type RpcObserver } from "./observed-transport.ts";

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

/** Request timeout for one RPC call; the quote deadline (25 s) bounds the whole request anyway. */
const RPC_TIMEOUT_MS = 10_000;

/**
 * The service's one chain client: coalescing of identical in-flight reads over either a private transport
 * (one endpoint, never a public fallback) or a public one hedged to a single backup.
 */
export function createChainClient(
  settings: RpcSettings,
  options: { stats?: CoalescingStats; observe?: RpcObserver } = {},
): PublicClient {
  const endpoint = (url: string) => http(url, { timeout: RPC_TIMEOUT_MS, retryCount: 0 });
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
    // Observed after coalescing: what reaches the node, one count per request actually sent.
    transport: coalescingTransport(
      options.observe ? observedTransport(transport, options.observe) : transport,
      options.stats,
    ),
    cacheTime: 0,
    batch: { multicall: false },
  }) as PublicClient;
}
