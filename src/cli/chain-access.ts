import { join } from "node:path";
import { type Address, BaseError, createPublicClient, http, type PublicClient } from "viem";
import { CHAIN_ID, junctionChain } from "../chain/chain.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import type { Config } from "../config/config.ts";
import { readDeployment } from "../config/deployment.ts";
import { readManifest } from "../devnet/manifest.ts";

/** How long an operator command waits for the chain before saying it is unreachable. */
const PROBE_TIMEOUT_MS = 5_000;

export type ChainAccess =
  | { reachable: true; client: PublicClient; registry: Address; rpcUrl: string }
  | { reachable: false; rpcUrl?: string; reason: string };

/**
 * The chain an operator command reads, configured as the service's: JUNCTION_RPC_URL with its deployment
 * file, else the embedded devnet through its manifest (`<dataDir>/devnet/manifest.json`), whose RPC URL
 * answers only while `junction start` or `junction devnet` runs. Unreachable is an answer, not an error:
 * commands that need no chain go on without it.
 */
export async function connectChain(config: Config): Promise<ChainAccess> {
  let client: PublicClient;
  let registry: Address;
  let rpcUrl: string;
  if (config.chain.mode === "rpc") {
    registry = readDeployment(config.chain.deploymentPath).contracts.builderRegistry;
    rpcUrl = config.chain.url;
    client = createChainClient({
      url: rpcUrl,
      kind: config.chain.kind,
      ...(config.chain.backupUrl ? { backupUrl: config.chain.backupUrl } : {}),
    });
  } else {
    const manifestPath = join(config.dataDir, "devnet", "manifest.json");
    const manifest = readManifest(manifestPath);
    if (!manifest) {
      return {
        reachable: false,
        reason: `no devnet manifest at ${manifestPath}; start the devnet (junction start) or set JUNCTION_RPC_URL`,
      };
    }
    registry = manifest.contracts.builderRegistry;
    rpcUrl = manifest.rpcUrl;
    client = createPublicClient({
      chain: junctionChain(rpcUrl),
      transport: http(rpcUrl, { timeout: PROBE_TIMEOUT_MS, retryCount: 0 }),
      cacheTime: 0,
    }) as PublicClient;
  }
  try {
    const chainId = await withTimeout(client.getChainId(), PROBE_TIMEOUT_MS);
    if (chainId !== CHAIN_ID)
      return { reachable: false, rpcUrl, reason: `${rpcUrl} serves chain ${chainId}, not ${CHAIN_ID}` };
  } catch (error) {
    const devnetHint =
      config.chain.mode === "devnet" ? " (is junction start or junction devnet running?)" : "";
    return { reachable: false, rpcUrl, reason: `${rpcUrl} does not answer: ${describe(error)}${devnetHint}` };
  }
  return { reachable: true, client, registry, rpcUrl };
}

/** A short cause for the operator: the socket error code when there is one, else viem's short message. */
function describe(error: unknown): string {
  if (error instanceof BaseError) {
    const coded = error.walk((e) => typeof (e as { code?: unknown })?.code === "string") as {
      code?: string;
    } | null;
    return coded?.code ?? error.shortMessage;
  }
  return (error as Error)?.message ?? String(error);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
