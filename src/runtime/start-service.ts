import type { AddressInfo } from "node:net";
import type { LogRangePolicy } from "../chain/log-scanner.ts";
import type { Config } from "../config/config.ts";
import type { Deployment } from "../config/deployment.ts";
import { NO_AGGREGATORS } from "../contracts/executor-constructor.ts";
import type { DemoPartner } from "../devnet/demo-partner.ts";
import type { DemoTransfers } from "../devnet/demo-transfers.ts";
import type { DemoWorkspace } from "../devnet/demo-workspace.ts";
import type { Devnet } from "../devnet/devnet.ts";
import { startWebhookSender } from "../events/deliver-webhooks.ts";
import { createOutboxSignal } from "../events/outbox-signal.ts";
import { createPoolIndex, type PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import type { Store } from "../store/create-store.ts";
import { acquireServiceLock, type EmbeddedLock } from "../store/embedded-lock.ts";
import { pingDatabase } from "../store/repositories/database-ping.ts";
import { loadPoolIndex, savePoolIndexSync } from "../store/repositories/pool-index.ts";
import { createTransferEstimator, deploymentAssetBook } from "../transfers/create-transfer-estimator.ts";
import { aggregatorWiringIssues, executorAggregatorTargets } from "./aggregator-wiring.ts";
import type { NodeFetch } from "./close-unread-body.ts";
import { createApps } from "./create-apps.ts";
import { logDatabase, watchDatabase } from "./database-readiness.ts";
import { discoveryProgress } from "./discovery-progress.ts";
import { createIndexFreshness, type IndexFreshness, indexReadiness } from "./index-freshness.ts";
import type { IndexerRole } from "./indexer-role.ts";
import { learnTokenLayouts } from "./learn-token-layouts.ts";
import type { Logger } from "./logger.ts";
import { createMetrics } from "./metrics.ts";
import { type OpenChain, openChain } from "./open-chain.ts";
import { openDatabase } from "./open-database.ts";
import { setUpQuoteProviders } from "./quote-providers.ts";
import { type DevnetSeed, seedDevnet } from "./seed-devnet.ts";
import { type HttpListener, serveHttp } from "./serve-http.ts";
import { createShutdownStack, type ShutdownStack } from "./shutdown-stack.ts";
import { startFollowers } from "./start-followers.ts";
import { createStopping } from "./stopping.ts";

export type Service = {
  baseUrl: string;
  partnerUrl: string;
  rpcUrl: string;
  deployment: Deployment;
  index: PoolIndex;
  store: Store;
  devnet?: Devnet;
  /** Devnet only: the demo workspace and its keys (also in the manifest). */
  demoWorkspace?: DemoWorkspace;
  /** Devnet only: the demo partner API keys (also in the manifest). */
  demoPartner?: DemoPartner;
  /** Devnet only: the transfer-estimate customer key and bridge stand-in URLs (also in the manifest). */
  demoTransfers?: DemoTransfers;
  /** Turns not ready, serves the drain period, closes both listeners, stops the devnet. Idempotent. */
  stop: () => Promise<void>;
};

/** How often tokens new pools bring get their layouts learned. */
const TOKEN_LAYOUTS_MS = 30_000;
/** How often the pool index saves the tips it reached on the embedded database (see createPersistedIndex). */
const EMBEDDED_TIPS_SAVE_MS = 60_000;

export class ListenError extends Error {
  override name = "ListenError";
}

/**
 * Starts Junction: the chain (the embedded devnet, or a configured RPC and deployment file), then the
 * {base_url} and {partner_url} listeners.
 */
export async function startService(
  config: Config,
  logger: Logger,
  progress: (line: string) => void = () => {},
): Promise<Service> {
  // Before anything in the data dir is read or written: a second start on it is refused untouched.
  const usesDataDir = config.chain.mode === "devnet" || !config.databaseUrl;
  const serviceLock = usesDataDir ? acquireServiceLock(config.dataDir) : undefined;
  try {
    return await startLocked(config, logger, progress, serviceLock);
  } catch (error) {
    serviceLock?.release();
    throw error;
  }
}

/**
 * The start, stage by stage, each named for what it opens: the chain, the database, the pool index, the
 * devnet's demos, the quote and transfer sources, the followers, the apps, the listeners. Each stage defers
 * the closing of what it opens, so a failing stage closes everything before it, in reverse.
 */
async function startLocked(
  config: Config,
  logger: Logger,
  progress: (line: string) => void,
  serviceLock: EmbeddedLock | undefined,
): Promise<Service> {
  const shutdown = createShutdownStack();
  shutdown.defer(() => serviceLock?.release());
  // Measured against the head this process reads, whether it indexes or reads the indexer's save.
  const freshness = createIndexFreshness();
  // The metrics are needed by the chain client, before the index and the role they report exist.
  const reported: { index?: PoolIndex; role?: IndexerRole } = {};
  const metrics = createMetrics({
    indexBlock: () => reported.index?.syncedTo()?.number,
    indexAgeMs: () => freshness.age(Date.now()),
    indexLagBlocks: freshness.lagBlocks,
    isIndexer: () => reported.role?.isIndexer() ?? false,
  });
  try {
    const chain = await openChain(config, {
      progress,
      logger,
      observeRpc: metrics.rpc,
      onRpcEvent: (event) => metrics.rpcAdaptation(event),
      shutdown,
    });
    const { client, deployment, devnet } = chain;
    const { store, role } = await openDatabase(config, chain, {
      progress,
      logger,
      indexProgress: freshness,
      shutdown,
    });
    const index = createPersistedIndex(deployment, {
      client,
      logRanges: chain.logRanges,
      store,
      freshness,
      logger,
      progress,
    });
    Object.assign(reported, { index, role });
    const assets = deploymentAssetBook(deployment);
    const seed = devnet ? await seedDevnet(devnet, { store, config, assets, shutdown }) : undefined;
    const { quoteProviders, estimator } = await openSources(config, chain, seed, { logger, shutdown });
    // Settlement events: written with their facts, sent as webhooks by every process, streamed to builders.
    const outbox = createOutboxSignal();
    const { settlementIndex, followed, allFollowed } = await startFollowers({
      onEventsWritten: outbox.notify,
      client,
      logRanges: chain.logRanges,
      atStart: chain.atStart,
      headsUrl: chain.headsUrl,
      deployment,
      store,
      index,
      role,
      freshness,
      logger,
      metrics,
      progress,
      shutdown,
    });
    // Every indexed token's balance and allowance slots, learned before quotes need them.
    const fixtures = createFixtures(client);
    const layouts = learnTokenLayouts({
      index,
      fixtures,
      spender: deployment.contracts.executor,
      latestBlock: () => client.getBlockNumber(),
      logger,
      intervalMs: TOKEN_LAYOUTS_MS,
    });
    shutdown.defer(() => layouts.stop());
    const sender = startWebhookSender({
      db: store.db,
      allowPrivate: config.webhooks.allowPrivate,
      signal: outbox,
      logger,
      retryScale: 1 / config.webhooks.retryDivisor,
      onAttempt: metrics.webhookAttempt,
    });
    shutdown.defer(() => sender.stop());
    const servers: HttpListener[] = [];
    const { lifecycle, leaveLoadBalancer, closeListeners } = createStopping({
      servers,
      databaseAnswers: watchDatabase(() => pingDatabase(store.db), { onChange: logDatabase(logger) }),
      indexReadiness: () => indexReadiness(freshness, Date.now()),
      nodeLacks: () => chain.features.lacks(),
      progress,
    });
    const apps = await createApps({
      config,
      logger,
      metrics,
      lifecycle,
      client,
      deployment,
      store,
      index,
      settlementIndex,
      followed,
      allFollowed,
      outbox,
      quoteProviders,
      fixtures,
      transfers: { estimator, assets, ...(seed ? { standInUrls: seed.standIns.urls } : {}) },
    });
    shutdown.defer(apps.stop);
    shutdown.defer(closeListeners);
    const basePort = await listen(servers, apps.base.fetch, config.host, config.port, "JUNCTION_PORT");
    const partnerPort = await listen(
      servers,
      apps.partner.fetch,
      config.host,
      config.partnerPort,
      "JUNCTION_PARTNER_PORT",
    );
    let stopping: Promise<void> | undefined;
    return {
      baseUrl: `http://${config.host}:${basePort}`,
      partnerUrl: `http://${config.host}:${partnerPort}`,
      rpcUrl: chain.rpcUrl,
      deployment,
      index,
      store,
      ...(devnet ? { devnet } : {}),
      ...(seed
        ? {
            demoWorkspace: seed.demoWorkspace,
            demoPartner: seed.demoPartner,
            demoTransfers: seed.demoTransfers,
          }
        : {}),
      stop: () => {
        stopping ??= leaveLoadBalancer(config.drainMs).then(shutdown.closeAll);
        return stopping;
      },
    };
  } catch (error) {
    // Nothing was routed here yet: no drain period.
    await shutdown.closeAll();
    throw error;
  }
}

/**
 * Start stage, the sources beside the pool index: the swap aggregators (on the devnet, stand-ins recorded in
 * its manifest) and the bridge providers transfer estimates ask (on the devnet, the seeded stand-ins).
 */
async function openSources(
  config: Config,
  chain: OpenChain,
  seed: DevnetSeed | undefined,
  deps: { logger: Logger; shutdown: ShutdownStack },
) {
  const { client, deployment, devnet } = chain;
  const quoteProviders = await setUpQuoteProviders({
    config: config.aggregators,
    deployment,
    client,
    ...(devnet && seed ? { devnet: { manifest: seed.manifest, manifestPath: devnet.manifestPath } } : {}),
  });
  deps.shutdown.defer(() => quoteProviders.close());
  // An executor deployed before the aggregator path has none of these immutables: it calls no aggregator.
  const executorTargets = await executorAggregatorTargets(client, deployment.contracts.executor).catch(
    () => NO_AGGREGATORS,
  );
  for (const issue of aggregatorWiringIssues(executorTargets, quoteProviders.targets))
    deps.logger.warn({ executor: deployment.contracts.executor }, issue);
  const estimator = createTransferEstimator({
    config: config.transfers,
    ...(seed ? { providerUrls: seed.standIns.urls } : {}),
    deployment,
    client,
    onProviderBug: (provider, error) =>
      deps.logger.error({ err: error, provider }, "bridge provider adapter failed"),
  });
  return { quoteProviders, estimator };
}

/**
 * Start stage, the pool index, persisted in the database: a restart resumes from its last block (a long
 * first scan is saved in steps), and a long scan prints its progress.
 */
function createPersistedIndex(
  deployment: Deployment,
  deps: {
    client: Parameters<typeof createPoolIndex>[0]["client"];
    logRanges: LogRangePolicy;
    store: Store;
    freshness: IndexFreshness;
    logger: Logger;
    progress: (line: string) => void;
  },
): PoolIndex {
  const tell = discoveryProgress(deps.progress);
  const { db } = deps.store;
  return createPoolIndex({
    client: deps.client,
    contracts: deployment.contracts,
    fromBlock: BigInt(deployment.poolsFromBlock),
    logRanges: deps.logRanges,
    // Saved tips tell other processes the index is fresh; the embedded database has no other process, so
    // there they only shorten a restart's catch-up scan, and a save a minute costs less than one every 10 s.
    ...(deps.store.kind === "postgres" ? {} : { tipsSaveMs: EMBEDDED_TIPS_SAVE_MS }),
    persistence: {
      load: (sinceVersion) => loadPoolIndex(db, sinceVersion),
      save: async (change) => {
        await savePoolIndexSync(db, change);
      },
    },
    onPersistError: (error) =>
      deps.logger.warn({ err: error }, "saving the pool index failed; retrying whole"),
    onScanned: (scan) => {
      deps.freshness.progressed(Date.now());
      tell(scan);
    },
  });
}

function listen(
  servers: HttpListener[],
  fetch: NodeFetch,
  hostname: string,
  port: number,
  setting: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = serveHttp({ fetch, hostname, port }, (info: AddressInfo) => resolve(info.port));
    servers.push(server);
    server.once("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EADDRINUSE" ? "is already in use" : `cannot be used (${error.code ?? error.message})`;
      reject(new ListenError(`${setting}: port ${port} on ${hostname} ${reason}`));
    });
  });
}
