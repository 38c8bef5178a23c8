import type { PublicClient } from "viem";
import { createBaseApp } from "../api/base-app.ts";
import type { Lifecycle } from "../api/lifecycle.ts";
import { createPartnerApp } from "../api/partner-app.ts";
import type { SettlementIndexReader } from "../builders/history.ts";
import type { Config } from "../config/config.ts";
import type { Deployment } from "../config/deployment.ts";
import type { OutboxSignal } from "../events/outbox-signal.ts";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { signInSite } from "../portal/sign-in-message.ts";
import { createAdmission } from "../quote/admission.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { createTransferFeeMeter } from "../simulation/transfer-fee.ts";
import type { Store } from "../store/create-store.ts";
import { sharedSecret } from "../store/repositories/service-secrets.ts";
import { type AssetBook, assetTags } from "../transfers/assets.ts";
import type { BridgeProviderId } from "../transfers/bridge-provider.ts";
import type { createTransferEstimator } from "../transfers/create-transfer-estimator.ts";
import { type Logger, repeatingWarning } from "./logger.ts";
import { accessLog, type createMetrics, observers } from "./metrics.ts";
import type { QuoteProviders } from "./quote-providers.ts";

/**
 * Start stage, the apps: the quoter over the index and the aggregators, then the {base_url} app (public
 * routing, builder API, transfer estimates, portal) and the {partner_url} app. Each surface has its own
 * per-process capacity, so public traffic cannot starve builder or partner quotes.
 */
export async function createApps(deps: {
  config: Config;
  logger: Logger;
  metrics: ReturnType<typeof createMetrics>;
  lifecycle: Lifecycle;
  client: PublicClient;
  deployment: Deployment;
  store: Store;
  index: PoolIndex;
  settlementIndex: SettlementIndexReader;
  /** Pool state that follows the chain: a warm quote's block, gas price and pools. */
  followed: FollowedSource;
  /** Settles once every indexed pool is followed: the search warm-up runs then. */
  allFollowed?: Promise<void>;
  /** Tells this process's event streams that events were written here. */
  outbox: OutboxSignal;
  quoteProviders: QuoteProviders;
  /** The balance fixtures quotes simulate with, whose token layouts are learned in the background. */
  fixtures: ReturnType<typeof createFixtures>;
  transfers: {
    estimator: ReturnType<typeof createTransferEstimator>;
    assets: AssetBook;
    standInUrls?: Record<string, string>;
  };
}) {
  const { config, logger, metrics, lifecycle, client, deployment, store, index, quoteProviders } = deps;
  const { db } = store;
  const latestBlock = () => client.getBlockNumber();
  const logError = (error: unknown, requestId?: string) =>
    logger.error({ err: error, requestId }, "unhandled request error");
  const { fixtures } = deps;
  // Our own route delivering less than its exact quote: the quote stays true (the candidate fails), but the
  // node's state and the search's disagreed at the block, which an operator wants to hear about, once a minute.
  const shortfalls = repeatingWarning(
    logger,
    "a route delivered less than its exact quote at the quote block; it was not selected",
  );
  const transferFees = createTransferFeeMeter(client, fixtures);
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
    onShortfall: (shortfall) => shortfalls.warn({ ...shortfall }),
    followed: deps.followed,
  });
  // In the background: the process's first quotes guess their fee terms from these (create-quoter.ts).
  quote
    .warm()
    .catch((error: unknown) =>
      logger.debug({ err: error }, "warming the fee terms failed; the first quotes read their own"),
    );
  // Once every pool is followed, the search runs over real trades with no node request, so that the first
  // quotes find it compiled (`warmSearch`, src/quote/search-warm-up.ts).
  deps.allFollowed
    ?.then(async () => {
      const started = performance.now();
      const searches = await quote.warmSearch({ stopped: () => deps.lifecycle.leaving() });
      if (searches > 0)
        logger.info(
          `quotes: search warmed up over ${searches} trades in ${Math.round(performance.now() - started)} ms`,
        );
    })
    .catch((error: unknown) => logger.debug({ err: error }, "warming up the search failed"));
  const quoting = { db, client, deployment, index, quote, fixtures, transferFees, now: Date.now };
  const cursorSecret = await sharedSecret(db, "history-cursor");
  const nonceSecret = await sharedSecret(db, "portal-nonce");
  const { settlementIndex } = deps;
  const { estimator, assets, standInUrls } = deps.transfers;
  const base = createBaseApp({
    observer: observers(metrics.observe("base"), accessLog(logger, "base")),
    metrics: metrics.scrape,
    lifecycle,
    contracts: deployment.contracts,
    providers: quoteProviders.statuses,
    providerDeadlineMs: config.aggregators.deadlineMs,
    transferOptions: {
      providers: estimator.providers.map((provider): BridgeProviderId => provider.id),
      assets: assetTags(assets),
      ...(standInUrls ? { standInUrls } : {}),
    },
    latestBlock,
    logError,
    quote,
    admission: createAdmission(),
    builders: {
      ...quoting,
      admission: createAdmission(),
      cursorSecret,
      settlementIndex,
      events: { signal: deps.outbox, leaving: lifecycle.leaving },
    },
    transfers: { db, estimator },
    portal: {
      db,
      client,
      deployment,
      cursorSecret,
      settlementIndex,
      site: signInSite(config.publicUrl),
      nonceSecret,
      webhooks: {
        policy: { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate },
        signal: deps.outbox,
      },
    },
  });
  const partner = createPartnerApp({
    observer: observers(metrics.observe("partner"), accessLog(logger, "partner")),
    lifecycle,
    latestBlock,
    logError,
    partner: { ...quoting, admission: createAdmission() },
  });
  // At shutdown: the shortfalls still counted are logged, and no timer outlives the service.
  return { base, partner, stop: () => shortfalls.stop() };
}
