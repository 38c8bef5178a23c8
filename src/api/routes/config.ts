import type { z } from "@hono/zod-openapi";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { zeroAddress } from "viem";
import { BUILDER_LIMITS } from "../../builders/limits.ts";
import { CHAIN_ID } from "../../chain/chain.ts";
import { BACKUP_RPC_DELAY_MS } from "../../chain/create-chain-client.ts";
import { CAPABILITIES } from "../../config/capabilities.ts";
import type { Contracts } from "../../config/deployment.ts";
import { poolSources } from "../../config/pool-sources.ts";
import { MAX_FALLBACK_V4_PROBES } from "../../liquidity/pool-index/fallback-probe.ts";
import { PARTNER_LIMITS } from "../../partners/limits.ts";
import type { QuoteSourceStatus } from "../../providers/quote-sources.ts";
import { FEE_DISCLOSURE, MAX_SERVICE_FEE_BPS } from "../../quote/fee-disclosure.ts";
import { QUOTE_LIMITS } from "../../quote/limits.ts";
import { SEARCH_LIMITS } from "../../routing/limits.ts";
import { BRIDGE_PROVIDER_IDS, type BridgeProviderId } from "../../transfers/bridge-provider.ts";
import { RESERVED_FEE_BPS } from "../../transfers/fees.ts";
import { TRANSFER_LIMITS } from "../../transfers/limits.ts";
import { API_VERSION } from "../api-version.ts";
import { CapabilitiesSchema, ConfigResponseSchema } from "../schemas/config.ts";

export type ConfigDeps = {
  contracts: Contracts;
  providers: () => QuoteSourceStatus[];
  /** Each provider's deadline per quote (default QUOTE_LIMITS.providerDeadlineMs). */
  providerDeadlineMs?: number;
  /** The configured bridge providers and accepted asset tags of transfer estimates; absent: none. */
  transferOptions?: {
    providers: readonly BridgeProviderId[];
    assets: string[];
    /** Devnet only: the loopback stand-ins answering for bridge providers. */
    standInUrls?: Partial<Record<BridgeProviderId, string>>;
  };
};

type QuoteLimits = Omit<z.infer<typeof ConfigResponseSchema>["limits"]["quote"], "providerDeadlineMs">;

/**
 * The public quote's limits (docs/rules.md, limits), gathered from the rooms that enforce them: admission and the
 * pool cap (quote/), the search shape (routing/), the fallback probe (liquidity/) and the backup RPC delay
 * (chain/).
 */
const PUBLIC_QUOTE_LIMITS: QuoteLimits = {
  deadlineMs: QUOTE_LIMITS.deadlineMs,
  concurrency: QUOTE_LIMITS.concurrency,
  admissionsPerMinute: QUOTE_LIMITS.admissionsPerMinute,
  admissionTtlMs: QUOTE_LIMITS.admissionTtlMs,
  ...SEARCH_LIMITS,
  maxPools: QUOTE_LIMITS.maxPools,
  maxFallbackV4Probes: MAX_FALLBACK_V4_PROBES,
  backupRpcDelayMs: BACKUP_RPC_DELAY_MS,
};

const configRoute = createRoute({
  method: "get",
  path: "/api/v2/config",
  tags: ["Public"],
  summary: "Public service configuration",
  description:
    "Keyless. Chain id, contract addresses, enabled providers, the fee disclosure, every published limit and the capability flags a client checks before offering an action.",
  responses: {
    200: {
      description: "The configuration",
      content: { "application/json": { schema: ConfigResponseSchema } },
    },
  },
});

const capabilitiesRoute = createRoute({
  method: "get",
  path: "/api/v2/capabilities",
  tags: ["Public"],
  summary: "Capability flags",
  description: "Keyless. Check `deposits` before showing a deposit action; zaps are not enabled.",
  responses: {
    200: { description: "Capability flags", content: { "application/json": { schema: CapabilitiesSchema } } },
  },
});

/** `GET /api/v2/config` and `GET /api/v2/capabilities` (docs/rules.md, public rules 2-3). */
export function registerConfigRoutes(app: OpenAPIHono, deps: ConfigDeps): void {
  app.openapi(configRoute, (c) => {
    const body: z.infer<typeof ConfigResponseSchema> = {
      chainId: CHAIN_ID,
      apiVersion: API_VERSION,
      nativeToken: { address: zeroAddress, symbol: "ETH", decimals: 18 },
      contracts: deps.contracts,
      poolSources: poolSources(deps.contracts),
      providers: deps.providers(),
      fees: {
        maxServiceFeeBps: MAX_SERVICE_FEE_BPS,
        serviceFeeModel: "pair-dependent-output-fee",
        thirdPartyQuotesAddNoFee: true,
        transferRouteFeeBps: RESERVED_FEE_BPS,
        disclosure: [...FEE_DISCLOSURE],
      },
      transfers: {
        providers: BRIDGE_PROVIDER_IDS.map((id) => {
          const standInUrl = deps.transferOptions?.standInUrls?.[id];
          return {
            id,
            enabled: deps.transferOptions?.providers.includes(id) ?? false,
            ...(standInUrl ? { standInUrl } : {}),
          };
        }),
        assets: deps.transferOptions?.assets ?? [],
        liveEnabled: false,
      },
      limits: {
        quote: {
          ...PUBLIC_QUOTE_LIMITS,
          providerDeadlineMs: deps.providerDeadlineMs ?? QUOTE_LIMITS.providerDeadlineMs,
        },
        builder: { ...BUILDER_LIMITS },
        partner: { ...PARTNER_LIMITS },
        transfers: {
          ratePerKeyPerMinute: TRANSFER_LIMITS.ratePerKeyPerMinute,
          providerDeadlineMs: TRANSFER_LIMITS.providerDeadlineMs,
          estimateTtlMs: TRANSFER_LIMITS.estimateTtlMs,
          supportedDelaysSeconds: [...TRANSFER_LIMITS.supportedDelaysSeconds],
        },
      },
      capabilities: CAPABILITIES,
    };
    return c.json(body, 200);
  });
  app.openapi(capabilitiesRoute, (c) => c.json(CAPABILITIES, 200));
}
