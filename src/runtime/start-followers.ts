import type { PublicClient } from "viem";
import { pruneQuotaCounters } from "../auth/quotas.ts";
import { followActivations } from "../builders/activation.ts";
import type { SettlementIndexReader } from "../builders/history.ts";
import { createSettlementIndex } from "../builders/settlement-index.ts";
import { settlementSources } from "../builders/settlement-logs.ts";
import { createLogScanner, type LogRangePolicy } from "../chain/log-scanner.ts";
import type { Deployment } from "../config/deployment.ts";
import { EVENT_RETENTION_DAYS } from "../events/event-stream.ts";
import { settlementFacts } from "../events/settlement-facts.ts";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { Store } from "../store/create-store.ts";
import { pruneEvents } from "../store/repositories/events.ts";
import { indexAtStart } from "./first-index.ts";
import { followChainAndPools } from "./follow-pools.ts";
import type { IndexFreshness } from "./index-freshness.ts";
import type { IndexerRole } from "./indexer-role.ts";
import { type Logger, repeatingWarning } from "./logger.ts";
import type { createMetrics } from "./metrics.ts";
import type { OpenChain } from "./open-chain.ts";
import type { ShutdownStack } from "./shutdown-stack.ts";
import { reportIndex } from "./start-reports.ts";

/** How often old quota windows are deleted. */
const QUOTA_PRUNE_MS = 3_600_000;

/**
 * Start stage, the indexes: the pool index's first sync (or the indexer's save), then the followers that
 * keep the pool index, the workspaces' activations and the settlement index at the tip (writing only while
 * this process is the indexer), pool state that follows the chain, and the hourly pruning of spent quota
 * windows and of events past their retention. Returns the settlement index history reads and the followed pool state quotes read.
 */
export async function startFollowers(deps: {
  client: PublicClient;
  /** How log scans size their `eth_getLogs` ranges (the node's, shared: see open-chain.ts). */
  logRanges: LogRangePolicy;
  /** Runs a start stage that reads the node, retried and its refusal named (see open-chain.ts). */
  atStart: OpenChain["atStart"];
  deployment: Deployment;
  store: Store;
  index: PoolIndex;
  role: IndexerRole;
  freshness: IndexFreshness;
  logger: Logger;
  metrics: Pick<ReturnType<typeof createMetrics>, "followedMismatch" | "followMode">;
  /** The node's WebSocket endpoint for new heads, if any (followed pool state subscribes to it). */
  headsUrl?: string | undefined;
  progress: (line: string) => void;
  /** Told when settlement events were written here (src/events/outbox-signal.ts). */
  onEventsWritten?: () => void;
  shutdown: ShutdownStack;
}): Promise<{
  settlementIndex: SettlementIndexReader;
  followed: FollowedSource;
  /** Settles once the followed state has taken in every indexed pool for the first time. */
  allFollowed: Promise<void>;
}> {
  const { client, deployment, index, role, freshness, logger, shutdown } = deps;
  const { db } = deps.store;
  const readHead = () => client.getBlockNumber();
  const indexed = await deps.atStart(
    () => indexAtStart({ index, role, freshness, readHead }, deps.progress),
    "the pool index's first scan",
    `The pool index reads the factories' and PoolManager's logs with eth_getLogs (one block at least: a node capping results below one block's pool logs cannot serve it) and keys at the head with eth_call: use a node that answers them (docs/operating.md, "Choosing a node")`,
  );
  reportIndex(index.pools(), deployment, indexed, deps.progress, logger);
  // A follower failing each step while the node is away says so once a minute, counted (logger.ts).
  const activationFailed = repeatingWarning(logger, "registry activation scan failed; retrying");
  const settlementFailed = repeatingWarning(logger, "settlement index sync failed; retrying");
  shutdown.defer(() => {
    activationFailed.stop();
    settlementFailed.stop();
  });
  // Activation is picked up from registry events (docs/rules.md, state rule 4): a workspace whose code is
  // registered and enabled on chain becomes active without anyone asking.
  const activations = followActivations({
    client,
    db,
    registry: deployment.contracts.builderRegistry,
    fromBlock: BigInt(deployment.deploymentBlock),
    onError: (error) => activationFailed.warn({ err: error }),
    onActivated: (codes) => logger.info({ codes }, "builder IDs activated"),
    logRanges: deps.logRanges,
  });
  const prune = () =>
    Promise.all([
      pruneQuotaCounters(db).catch((error) => logger.warn({ err: error }, "quota pruning failed")),
      pruneEvents(db, new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000)).catch((error) =>
        logger.warn({ err: error }, "event pruning failed"),
      ),
    ]);
  await prune();
  const pruner = setInterval(prune, QUOTA_PRUNE_MS);
  pruner.unref();
  shutdown.defer(() => clearInterval(pruner));
  // Settlement events for builders (confirming, finalized, reorged) go to the outbox with the facts.
  const facts = settlementFacts({
    db,
    collector: deployment.contracts.settlementCollector,
    executor: deployment.contracts.executor,
    ...(deps.onEventsWritten ? { onWritten: deps.onEventsWritten } : {}),
  });
  // History reads the finalized settlement events from the database for the range this index covers.
  const settlementIndex = createSettlementIndex({
    facts,
    client,
    db,
    sources: settlementSources(deployment.contracts),
    deploymentBlock: BigInt(deployment.deploymentBlock),
    logs: createLogScanner(deps.logRanges),
  });
  // One head follower drives every per-block task: pool state, the pool index, activations and the
  // settlement index (writing only while this process is the indexer; the role renews its lease in the
  // background, the tasks only read the outcome).
  const follower = followChainAndPools({
    index,
    client,
    deployment,
    logger,
    metrics: deps.metrics,
    headsUrl: deps.headsUrl,
    freshness,
    isIndexer: role.isIndexer,
    activations,
    settlements: settlementIndex,
    facts,
    onSettlementError: (error) => settlementFailed.warn({ err: error }),
  });
  shutdown.defer(() => follower.stop());
  return { settlementIndex, followed: follower.followed, allFollowed: follower.allFollowed };
}
