import type { PublicClient } from "viem";
import type { AggregatorsConfig } from "../config/config.ts";
import type { Deployment } from "../config/deployment.ts";
import type { Manifest } from "../devnet/manifest.ts";
import {
  type AggregatorId,
  type AggregatorStandIns,
  recordAggregatorStandIns,
  startAggregatorStandIns,
} from "../devnet/stand-ins/start-aggregator-stand-ins.ts";
import { createAggregatorA } from "../providers/aggregator-a.ts";
import { createAggregatorB } from "../providers/aggregator-b.ts";
import type { QuoteProvider } from "../providers/provider.ts";
import { QUOTE_SOURCE_KINDS, QUOTE_SOURCES, type QuoteSourceStatus } from "../providers/quote-sources.ts";
import type { AggregatorTargets } from "./aggregator-wiring.ts";

export type QuoteProviders = {
  /** The enabled third-party sources, asked beside our own search. */
  providers: QuoteProvider[];
  /** Every `provider` value with its truthful enabled state, for `/api/v2/config`. */
  statuses: () => QuoteSourceStatus[];
  /** Stops the devnet stand-ins, if any were started. */
  close: () => Promise<void>;
  /** The contracts the enabled aggregators' transactions call (checked against the executor at start). */
  targets: AggregatorTargets;
};

type Options = {
  config: AggregatorsConfig;
  deployment: Deployment;
  client: PublicClient;
  /** On the devnet: its manifest (where the stand-ins are recorded) and the path it is written to. */
  devnet?: { manifest: Manifest; manifestPath: string };
};

/**
 * The swap aggregators: the configured APIs, or on the devnet loopback stand-ins for the enabled ones the
 * operator left unset (docs/api/public-quote.md, "Third-party providers"). Credentials stay inside the adapters.
 */
export async function setUpQuoteProviders({
  config,
  deployment,
  client,
  devnet,
}: Options): Promise<QuoteProviders> {
  const { a, b } = config;
  let standIns: AggregatorStandIns | undefined;
  if (devnet) {
    const unset = (["aggregator-a", "aggregator-b"] as const).filter((id) =>
      id === "aggregator-a" ? a.enabled && !a.api : b.enabled && !b.api,
    );
    standIns = await startAggregatorStandIns(devnet.manifest, unset);
    recordAggregatorStandIns(devnet.manifestPath, devnet.manifest, standIns.urls);
  }
  const standInUrl = (id: AggregatorId) => standIns?.urls[id];
  const providers: QuoteProvider[] = [];

  const standInA = standInUrl("aggregator-a");
  const apiA =
    a.api ??
    (standInA && devnet
      ? { url: standInA, router: devnet.manifest.aggregators.aggregatorARouter }
      : undefined);
  if (a.enabled && apiA)
    providers.push(
      createAggregatorA({
        baseUrl: apiA.url,
        router: apiA.router,
        ...("apiKey" in apiA && apiA.apiKey ? { apiKey: apiA.apiKey } : {}),
      }),
    );

  const standInB = standInUrl("aggregator-b");
  const apiB =
    b.api ??
    (standInB && devnet
      ? {
          url: standInB,
          allowanceHolder: devnet.manifest.aggregators.allowanceHolder,
          settlerRegistry: devnet.manifest.aggregators.settlerRegistry,
        }
      : undefined);
  if (b.enabled && apiB)
    providers.push(
      createAggregatorB({
        baseUrl: apiB.url,
        chainId: deployment.chainId,
        allowanceHolder: apiB.allowanceHolder,
        settlerRegistry: apiB.settlerRegistry,
        client,
        ...("apiKey" in apiB && apiB.apiKey ? { apiKey: apiB.apiKey } : {}),
      }),
    );

  const statuses = (): QuoteSourceStatus[] =>
    QUOTE_SOURCES.map((id): QuoteSourceStatus => {
      const kind = QUOTE_SOURCE_KINDS[id];
      if (id === "service") return { id, kind, enabled: true };
      const adapter: AggregatorId = id === "aggregator-b" ? "aggregator-b" : "aggregator-a";
      const url = standInUrl(adapter);
      if (providers.some((provider) => provider.id === adapter))
        return { id, kind, enabled: true, ...(url ? { standInUrl: url } : {}) };
      const switchedOff = !(adapter === "aggregator-a" ? a : b).enabled;
      return {
        id,
        kind,
        enabled: false,
        reason: switchedOff
          ? `disabled by JUNCTION_${adapter.toUpperCase().replace("-", "_")}_ENABLED`
          : "not configured",
      };
    });

  const targets: AggregatorTargets = {
    ...(a.enabled && apiA ? { router: apiA.router } : {}),
    ...(b.enabled && apiB
      ? { allowanceHolder: apiB.allowanceHolder, settlerRegistry: apiB.settlerRegistry }
      : {}),
  };
  return { providers, statuses, targets, close: async () => standIns?.close() };
}
