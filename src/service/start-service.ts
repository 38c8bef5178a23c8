import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createBaseApp } from "../api/base-app.ts";
import { createPartnerApp } from "../api/partner-app.ts";
import { pruneQuotaCounters } from "../auth/quotas.ts";
import { followActivations } from "../builders/activation.ts";
import { reconcileWithChain } from "../builders/chain-consistency.ts";
import { createSettlementIndex, followSettlements } from "../builders/settlement-index.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { checkDeployment } from "../config/check-deployment.ts";
import type { Config } from "../config/config.ts";
import { type Deployment, readDeployment } from "../config/deployment.ts";
import { type DemoPartner, ensureDemoPartner } from "../devnet/demo-partner.ts";
import { type DemoTransfers, ensureDemoTransfers } from "../devnet/demo-transfers.ts";
import { type DemoWorkspace, ensureDemoWorkspace } from "../devnet/demo-workspace.ts";
import { configuredDevnet, type Devnet } from "../devnet/devnet.ts";
import { type BridgeStandIns, startBridgeStandIns } from "../devnet/stand-ins/start-bridge-stand-ins.ts";
import { createPoolIndex, type PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { signInSite } from "../portal/sign-in-message.ts";
import { createAdmission } from "../quote/admission.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createTransferFeeMeter } from "../simulation/transfer-fee.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { acquireServiceLock, type EmbeddedLock } from "../store/embedded-lock.ts";
import { openEmbeddedShared } from "../store/embedded-shared.ts";
import { pingDatabase } from "../store/repositories/database-ping.ts";
import { loadPoolIndex, savePoolIndexSync } from "../store/repositories/pool-index.ts";
import { sharedSecret } from "../store/repositories/service-secrets.ts";
import { assetTags } from "../transfers/assets.ts";
import { BRIDGE_PROVIDER_IDS, type BridgeProviderId } from "../transfers/bridge-provider.ts";
import { createTransferEstimator, deploymentAssetBook } from "../transfers/create-transfer-estimator.ts";
import { finalizedTagWarning } from "./check-finalized-tag.ts";
import type { NodeFetch } from "./close-unread-body.ts";
import { logDatabase, watchDatabase } from "./database-readiness.ts";
import { indexAtStart } from "./first-index.ts";
import { followChainAndPools } from "./follow-pools.ts";
import { createIndexFreshness, indexReadiness } from "./index-freshness.ts";
import { createIndexerRole, type IndexerRole } from "./indexer-role.ts";
import type { Logger } from "./logger.ts";
import { accessLog, createMetrics, observers } from "./metrics.ts";
import { type QuoteProviders, setUpQuoteProviders } from "./quote-providers.ts";
import { type HttpListener, serveHttp } from "./serve-http.ts";
import { reportConsistency, reportIndex } from "./start-reports.ts";
import { createStopping } from "./stopping.ts";

/** How often the pool index follows the chain tip. */
const INDEX_FOLLOW_MS = 2_000;
/** How often old quota windows are deleted. */
const QUOTA_PRUNE_MS = 3_600_000;

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

async function startLocked(
  config: Config,
  logger: Logger,
  progress: (line: string) => void,
  serviceLock: EmbeddedLock | undefined,
): Promise<Service> {
  let devnet: Devnet | undefined;
  let deployment: Deployment;
  let rpcUrl: string;
  if (config.chain.mode === "devnet") {
    devnet = await configuredDevnet(config.chain, config.dataDir, progress);
    deployment = devnet.manifest;
    rpcUrl = devnet.rpcUrl;
  } else {
    deployment = readDeployment(config.chain.deploymentPath);
    rpcUrl = config.chain.url;
  }

  // Measured against the head this process reads, whether it indexes or reads the indexer's save.
  const freshness = createIndexFreshness();
  const metrics = createMetrics({
    indexBlock: () => index.syncedTo()?.number,
    indexAgeMs: () => freshness.age(Date.now()),
    indexLagBlocks: freshness.lagBlocks,
    isIndexer: () => role?.isIndexer() ?? false,
  });
  // The devnet is our own node: a private transport. A real RPC uses the configured kind and backup.
  const client = createChainClient(
    config.chain.mode === "devnet"
      ? { url: rpcUrl, kind: "private" }
      : {
          url: config.chain.url,
          kind: config.chain.kind,
          ...(config.chain.backupUrl ? { backupUrl: config.chain.backupUrl } : {}),
        },
    { observe: metrics.rpc, finalityConfirmations: config.finalityConfirmations },
  );
  const latestBlock = () => client.getBlockNumber();

  const logError = (error: unknown, requestId?: string) =>
    logger.error({ err: error, requestId }, "unhandled request error");
  // Set up once the devnet manifest is complete, before the listeners open.
  let quoteProviders: QuoteProviders | undefined;
  const index = createPoolIndex({
    client,
    contracts: deployment.contracts,
    fromBlock: BigInt(deployment.poolsFromBlock),
    // Persisted in the database (opened before the first sync): a restart resumes from the last block.
    persistence: {
      load: (sinceVersion) => loadPoolIndex(store!.db, sinceVersion),
      save: async (change) => {
        await savePoolIndexSync(store!.db, change);
      },
    },
    onPersistError: (error) => logger.warn({ err: error }, "saving the pool index failed; retrying whole"),
    onScanned: () => freshness.progressed(Date.now()),
  });
  let follower: ReturnType<typeof followChainAndPools> | undefined;
  let activations: ReturnType<typeof followActivations> | undefined;
  let settlementFollower: ReturnType<typeof followSettlements> | undefined;
  let pruner: NodeJS.Timeout | undefined;
  let store: Store | undefined;
  let role: IndexerRole | undefined;
  let standIns: BridgeStandIns | undefined;
  const servers: HttpListener[] = [];
  const databaseAnswers = watchDatabase(() => pingDatabase(store!.db), { onChange: logDatabase(logger) });
  const { lifecycle, leaveLoadBalancer, closeListeners } = createStopping({
    servers,
    databaseAnswers,
    indexReadiness: () => indexReadiness(freshness, Date.now()),
    progress,
  });
  const stop = async (drainMs: number) => {
    await leaveLoadBalancer(drainMs);
    await closeListeners();
    await follower?.stop();
    await activations?.stop();
    await settlementFollower?.stop();
    await role?.release();
    clearInterval(pruner);
    await standIns?.close();
    await quoteProviders?.close();
    await store?.close();
    await devnet?.stop();
    serviceLock?.release();
  };
  try {
    await checkDeployment(
      client,
      deployment,
      config.chain.mode === "devnet" ? "devnet manifest" : `deployment file ${config.chain.deploymentPath}`,
    );
    const finality = await finalizedTagWarning(client, config.finalityConfirmations);
    if (finality) logger.warn(finality);
    progress(
      config.databaseUrl
        ? "connecting to the Postgres server"
        : existsSync(join(config.dataDir, "db", "PG_VERSION"))
          ? "opening the embedded database"
          : "creating the embedded database (first start: a few seconds)",
    );
    // The embedded database is served on a private socket so the operator CLI can reach it while we run.
    store = config.databaseUrl
      ? await createStore({ databaseUrl: config.databaseUrl, dataDir: null })
      : await openEmbeddedShared({ dataDir: config.dataDir });
    progress(`database ready (${store.kind === "postgres" ? "Postgres server" : "embedded PGlite"})`);
    // Among processes sharing the database, one indexes the chain; the others read its indexes. Only this
    // process can open the embedded database, so there its holder id is fixed (a restart reclaims at once).
    role = createIndexerRole({
      db: store.db,
      ...(store.kind === "postgres" ? {} : { holder: "embedded" }),
      // Held only while the index advances against this process's node (a cut node hands it over).
      progress: freshness,
      onChange: (isIndexer) =>
        logger.info(
          isIndexer
            ? "this process is the indexer: it follows the chain and writes the indexes"
            : "this process is not the indexer (another holds the lease, or it is stopping): it reads the saved indexes",
        ),
    });
    reportConsistency(
      await reconcileWithChain({ client, db: store.db, registry: deployment.contracts.builderRegistry }),
      progress,
      logger,
    );
    const demoWorkspace = devnet
      ? await ensureDemoWorkspace(store.db, devnet.manifest, devnet.manifestPath)
      : undefined;
    // Given the manifest as the demo workspace left it, so writing one keeps the other.
    const demoPartner = devnet
      ? await ensureDemoPartner(store.db, { ...devnet.manifest, demoWorkspace }, devnet.manifestPath)
      : undefined;
    // On the devnet, bridge providers the operator left unset are served by loopback stand-ins.
    const assets = deploymentAssetBook(deployment);
    if (devnet) {
      const unset = BRIDGE_PROVIDER_IDS.filter(
        (id) => !(id === "bridge-a" ? config.transfers.bridgeA : config.transfers.bridgeB),
      );
      standIns = await startBridgeStandIns(assets, unset);
    }
    const transferEstimator = createTransferEstimator({
      config: config.transfers,
      ...(standIns ? { providerUrls: standIns.urls } : {}),
      deployment,
      client,
      onProviderBug: (provider, error) =>
        logger.error({ err: error, provider }, "bridge provider adapter failed"),
    });
    const demoTransfers = devnet
      ? await ensureDemoTransfers(
          store.db,
          { ...devnet.manifest, demoWorkspace, demoPartner },
          devnet.manifestPath,
          standIns?.urls ?? {},
        )
      : undefined;
    quoteProviders = await setUpQuoteProviders({
      config: config.aggregators,
      deployment,
      client,
      ...(devnet
        ? {
            devnet: {
              manifest: { ...devnet.manifest, demoWorkspace, demoPartner, demoTransfers },
              manifestPath: devnet.manifestPath,
            },
          }
        : {}),
    });
    const indexed = await indexAtStart({ index, role, freshness, readHead: latestBlock }, progress);
    reportIndex(index.pools(), deployment, indexed, progress, logger);
    // The role renews its lease in the background; the follower only reads the outcome.
    const isIndexer = async () => role!.isIndexer();
    const indexFollow = { intervalMs: INDEX_FOLLOW_MS, freshness, isIndexer, readHead: latestBlock };
    follower = followChainAndPools({ index, client, deployment, logger, metrics, ...indexFollow });
    // Activation is picked up from registry events (docs/rules.md, state rule 4): a workspace whose code
    // is registered and enabled on chain becomes active without anyone asking.
    activations = followActivations({
      client,
      db: store.db,
      registry: deployment.contracts.builderRegistry,
      fromBlock: BigInt(deployment.deploymentBlock),
      intervalMs: INDEX_FOLLOW_MS,
      onError: (error) => logger.warn({ err: error }, "registry activation scan failed; retrying"),
      onActivated: (codes) => logger.info({ codes }, "builder IDs activated"),
      isIndexer: role.isIndexer,
    });
    const prune = () =>
      pruneQuotaCounters(store!.db).catch((error) => logger.warn({ err: error }, "quota pruning failed"));
    await prune();
    pruner = setInterval(prune, QUOTA_PRUNE_MS);
    pruner.unref();
    const fixtures = createFixtures(client);
    const transferFees = createTransferFeeMeter(client);
    const quote = createQuoter({
      client,
      index,
      contracts: deployment.contracts,
      fixtures,
      transferFees,
      providers: quoteProviders.providers,
      providerDeadlineMs: config.aggregators.deadlineMs,
      onProviderOutcome: metrics.provider,
      onTimings: metrics.quoteStages,
      followed: follower.followed,
    });
    // History reads the finalized settlement events from the database for the range this index covers.
    const settlementIndex = createSettlementIndex({
      client,
      db: store.db,
      collector: deployment.contracts.settlementCollector,
      deploymentBlock: BigInt(deployment.deploymentBlock),
    });
    settlementFollower = followSettlements(settlementIndex, {
      intervalMs: INDEX_FOLLOW_MS,
      onError: (error) => logger.warn({ err: error }, "settlement index sync failed; retrying"),
      isIndexer: role.isIndexer,
    });
    const quoting = { db: store.db, client, deployment, index, quote, fixtures, transferFees, now: Date.now };
    const cursorSecret = await sharedSecret(store.db, "history-cursor");
    const nonceSecret = await sharedSecret(store.db, "portal-nonce");
    const site = signInSite(config.publicUrl);
    const base = createBaseApp({
      observer: observers(metrics.observe("base"), accessLog(logger, "base")),
      metrics: metrics.scrape,
      lifecycle,
      contracts: deployment.contracts,
      providers: quoteProviders.statuses,
      providerDeadlineMs: config.aggregators.deadlineMs,
      transferOptions: {
        providers: transferEstimator.providers.map((provider): BridgeProviderId => provider.id),
        assets: assetTags(assets),
        ...(standIns ? { standInUrls: standIns.urls } : {}),
      },
      latestBlock,
      logError,
      quote,
      admission: createAdmission(),
      // Each surface has its own per-process capacity: public traffic cannot starve builder or partner quotes.
      builders: {
        ...quoting,
        admission: createAdmission(),
        cursorSecret,
        settlementIndex,
      },
      transfers: { db: store.db, estimator: transferEstimator },
      portal: { db: store.db, client, deployment, cursorSecret, settlementIndex, site, nonceSecret },
    });
    const partner = createPartnerApp({
      observer: observers(metrics.observe("partner"), accessLog(logger, "partner")),
      lifecycle,
      latestBlock,
      logError,
      partner: { ...quoting, admission: createAdmission() },
    });
    const basePort = await listen(servers, base.fetch, config.host, config.port, "JUNCTION_PORT");
    const partnerPort = await listen(
      servers,
      partner.fetch,
      config.host,
      config.partnerPort,
      "JUNCTION_PARTNER_PORT",
    );
    let stopping: Promise<void> | undefined;
    return {
      baseUrl: `http://${config.host}:${basePort}`,
      partnerUrl: `http://${config.host}:${partnerPort}`,
      rpcUrl,
      deployment,
      index,
      store,
      ...(devnet ? { devnet } : {}),
      ...(demoWorkspace ? { demoWorkspace } : {}),
      ...(demoPartner ? { demoPartner } : {}),
      ...(demoTransfers ? { demoTransfers } : {}),
      stop: () => {
        stopping ??= stop(config.drainMs);
        return stopping;
      },
    };
  } catch (error) {
    // Nothing was routed here yet: no drain period.
    await stop(0);
    throw error;
  }
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
