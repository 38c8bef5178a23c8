import type { PublicClient } from "viem";
import { createChainClient, type RpcSettings } from "../chain/create-chain-client.ts";
import { type LogRangePolicy, nodeLogRanges } from "../chain/log-scanner.ts";
import type { RpcObserver } from "../chain/observed-transport.ts";
import { checkDeployment } from "../config/check-deployment.ts";
import type { Config } from "../config/config.ts";
import { type Deployment, readDeployment } from "../config/deployment.ts";
import { configuredDevnet, type Devnet } from "../devnet/devnet.ts";
import { finalizedTagWarning } from "./check-finalized-tag.ts";
import type { Logger } from "./logger.ts";
import { missingMethodMessage, NodeFeatures, nodeFeaturesLine, probeNodeFeatures } from "./node-features.ts";
import { reachNode } from "./reach-node.ts";
import type { ShutdownStack } from "./shutdown-stack.ts";

export type OpenChain = {
  /** Set when the chain is the embedded devnet (its manifest is the deployment). */
  devnet?: Devnet;
  deployment: Deployment;
  rpcUrl: string;
  /**
   * The node's WebSocket endpoint followed pool state subscribes to new heads at: JUNCTION_RPC_WS_URL, or
   * the devnet's own (anvil serves WebSocket on its HTTP port). Never logged: it may carry a credential.
   */
  headsUrl?: string;
  client: PublicClient;
  /** How every log scan of this node sizes its `eth_getLogs` ranges, sharing what the node refused. */
  logRanges: LogRangePolicy;
  /** What the node lacks of what Junction uses (probed at start, added to as learned). */
  features: NodeFeatures;
  /**
   * Runs a later start stage that reads the node (the pool index's first scan) as the first contact is run:
   * retried while the node's failure is transient, and a refusal stops the start naming the node's answer,
   * `step` and `remedy`, never as an unexpected error.
   */
  atStart: <T>(work: () => Promise<T>, step: string, remedy: string) => Promise<T>;
};

/**
 * Start stage, the chain: the embedded devnet (our own node, a private transport), or the configured RPC
 * (its kind and backup) and deployment file; the deployment checked against the chain, and a warning when
 * the node's `finalized` tag cannot be trusted.
 */
export async function openChain(
  config: Config,
  deps: {
    progress: (line: string) => void;
    logger: Logger;
    observeRpc: RpcObserver;
    /** Each refused request the transport adapted to (metrics). */
    onRpcEvent?: (event: "split" | "throttled") => void;
    shutdown: ShutdownStack;
  },
): Promise<OpenChain> {
  const { chain } = config;
  let where: {
    devnet?: Devnet;
    deployment: Deployment;
    rpc: RpcSettings;
    headsUrl?: string;
    label: string;
  };
  if (chain.mode === "devnet") {
    const devnet = await configuredDevnet(chain, config.dataDir, deps.progress);
    deps.shutdown.defer(() => devnet.stop());
    const rpc = { url: devnet.rpcUrl, kind: "private" as const };
    const headsUrl = new URL(devnet.rpcUrl);
    headsUrl.protocol = "ws:";
    where = { devnet, deployment: devnet.manifest, rpc, headsUrl: headsUrl.href, label: "devnet manifest" };
  } else {
    const rpc = {
      url: chain.url,
      kind: chain.kind,
      ...(chain.backupUrl ? { backupUrl: chain.backupUrl } : {}),
    };
    where = {
      deployment: readDeployment(chain.deploymentPath),
      rpc,
      ...(chain.wsUrl ? { headsUrl: chain.wsUrl } : {}),
      label: `deployment file ${chain.deploymentPath}`,
    };
  }
  const { maxLogRange, ...batch } = config.rpcBatch;
  const features = new NodeFeatures();
  const client = createChainClient(
    { ...where.rpc, ...batch },
    {
      observe: deps.observeRpc,
      finalityConfirmations: config.finalityConfirmations,
      onBatchLimits: ({ limits, message }) => deps.logger.warn({ limits }, message),
      ...(deps.onRpcEvent ? { onRpcEvent: deps.onRpcEvent } : {}),
      onMissingMethod: (method) => {
        features.lack(method);
        deps.logger.warn({ method }, missingMethodMessage(method));
      },
    },
  );
  // The first contact with the node: retried while it is transient, and said plainly when it fails.
  const node = { url: where.rpc.url, setting: where.devnet ? "the embedded devnet" : "JUNCTION_RPC_URL" };
  await reachNode(client, node, () => checkDeployment(client, where.deployment, where.label), deps);
  const finality = await finalizedTagWarning(client, config.finalityConfirmations);
  if (finality) deps.logger.warn(finality);
  const { devnet, deployment, rpc, headsUrl } = where;
  await probeNodeFeatures(client, features, { finalizedMissing: finality !== undefined, headsUrl });
  deps.progress(nodeFeaturesLine(features.lacks()));
  return {
    ...(devnet ? { devnet } : {}),
    deployment,
    rpcUrl: rpc.url,
    ...(headsUrl ? { headsUrl } : {}),
    client,
    features,
    atStart: (work, step, remedy) => reachNode(client, node, work, { ...deps, step, remedy }),
    logRanges: nodeLogRanges(maxLogRange, {
      onRefused: (blocks, first) => {
        deps.onRpcEvent?.("split");
        if (first) deps.logger.warn({ blocks: String(blocks) }, logRangeRefusedMessage(blocks));
      },
    }),
  };
}

/** The one line that says a node refused a log range (docs/operating.md, "Choosing a node"). */
export function logRangeRefusedMessage(blocks: bigint): string {
  return `rpc: the node refused eth_getLogs over ${blocks} blocks; log ranges now stay within what it answers (set JUNCTION_RPC_MAX_LOG_RANGE to its limit to start so)`;
}
