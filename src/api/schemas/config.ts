import { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";
import { POOL_SOURCES } from "../../config/pool-sources.ts";
import { API_VERSION } from "../api-version.ts";
import { Address, Hash32 } from "./common-patterns.ts";

export const CapabilitiesSchema = z
  .object({
    zaps: z.literal(false).openapi({ description: "Swap-and-deposit (zaps) is not enabled." }),
    deposits: z
      .literal(false)
      .openapi({ description: "Check before showing a deposit action: false means do not show one." }),
    transferCreation: z
      .literal(false)
      .openapi({ description: "Transfer creation, funding and deposits are disabled." }),
    submitsTransactions: z
      .literal(false)
      .openapi({ description: "The service never signs or submits; it returns unsigned transactions." }),
  })
  .openapi("Capabilities");

export const ConfigResponseSchema = z
  .object({
    chainId: z.literal(CHAIN_ID),
    apiVersion: z.literal(API_VERSION).openapi({ description: "Version of the interface description." }),
    nativeToken: z.object({
      address: Address.openapi({ description: "The zero address denotes native ETH." }),
      symbol: z.literal("ETH"),
      decimals: z.literal(18),
    }),
    contracts: z
      .object({
        weth9: Address,
        permit2: Address.optional(),
        v2Factory: Address.optional(),
        v2Router02: Address.optional(),
        v3Factory: Address.optional(),
        v3PositionManager: Address.optional(),
        v3SwapRouter: Address.optional(),
        v3QuoterV2: Address.optional(),
        v4PoolManager: Address.optional(),
        v4PositionManager: Address.optional(),
        v4StateView: Address.optional(),
        v4Quoter: Address.optional(),
        universalRouter: Address.optional(),
        v2PairInitCodeHash: Hash32.optional(),
        v3PoolInitCodeHash: Hash32.optional(),
        executor: Address.openapi({
          description: "Junction's executor: `tx.to` of prepared swaps and the spender to approve.",
        }),
        builderRegistry: Address.openapi({
          description: "Builder codes and profiles, and the standard service fee schedule.",
        }),
        settlementCollector: Address.openapi({
          description: "The reviewed collector: holds fees and emits the settlement events history reads.",
        }),
      })
      .openapi({
        description:
          "Addresses of the contracts on chain 4663 the service routes through and reads. A pool source's fields are absent when the deployment has no such source (`poolSources`).",
      }),
    poolSources: z
      .array(
        z.object({
          id: z.enum(POOL_SOURCES),
          enabled: z.boolean(),
          reason: z.string().optional().openapi({ description: "Why a source is disabled." }),
        }),
      )
      .openapi({
        description:
          "The direct pool sources: Uniswap V2, V3 and V4. A source the chain's deployment lacks is disabled: its pools are never indexed, probed or routed through.",
      }),
    providers: z
      .array(
        z.object({
          id: z.enum(["service", "aggregator-a", "aggregator-b", "aggregator-a-direct"]),
          kind: z.enum(["direct-pools", "aggregator", "firm-quote"]),
          enabled: z.boolean(),
          reason: z.string().optional(),
          standInUrl: z.string().optional().openapi({
            description:
              "Devnet only: the loopback stand-in serving this provider's API shape (absent for a configured API).",
          }),
        }),
      )
      .openapi({ description: "Quote sources and whether each is enabled on this deployment." }),
    transfers: z
      .object({
        providers: z
          .array(
            z.object({
              id: z.enum(["bridge-a", "bridge-b"]),
              enabled: z.boolean(),
              standInUrl: z.string().optional().openapi({
                description: "Devnet only: the loopback stand-in serving this bridge provider's API shape.",
              }),
            }),
          )
          .openapi({ description: "Bridge providers of transfer estimates and whether each is configured." }),
        assets: z.array(z.string()).openapi({
          description:
            "Every asset tag `/api/transfers/v1/routes` accepts (`ETH:<chainId>`, `STABLE:<chainId>`).",
          example: ["ETH:1", "STABLE:1", "ETH:4663"],
        }),
        liveEnabled: z.literal(false).openapi({ description: "Transfers are estimates only." }),
      })
      .openapi({
        description: "Transfer estimates (`/api/transfers/v1/routes`, with an X-Service-Api-Key).",
      }),
    fees: z.object({
      maxServiceFeeBps: z
        .literal(50)
        .openapi({ description: "The swap's output fee never exceeds 50 bps (0.50%)." }),
      serviceFeeModel: z.literal("pair-dependent-output-fee"),
      thirdPartyQuotesAddNoFee: z.literal(true),
      transferRouteFeeBps: z.literal(20),
      disclosure: z.array(z.string()),
    }),
    limits: z.object({
      quote: z.object({
        deadlineMs: z.number().int(),
        concurrency: z.number().int(),
        admissionsPerMinute: z.number().int(),
        admissionTtlMs: z.number().int(),
        maxHops: z.number().int(),
        maxSplitBranches: z.number().int(),
        splitGridBps: z.number().int(),
        splitRefinementBps: z.number().int(),
        maxPools: z.number().int(),
        maxFallbackV4Probes: z.number().int(),
        backupRpcDelayMs: z.number().int(),
        providerDeadlineMs: z.number().int().openapi({
          description:
            "How long each third-party provider may take to answer before the quote goes on without it.",
        }),
      }),
      builder: z.record(z.string(), z.unknown()),
      partner: z
        .object({
          ratePerKeyPerMinute: z.object({ quote: z.number().int(), tokens: z.number().int() }).openapi({
            description:
              "Requests per partner key per minute window, for `/quote` and `/tokens`; past it 429 RATE_LIMITED with Retry-After.",
          }),
          slippageBps: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
          deadlineSeconds: z.object({ max: z.number().int(), default: z.number().int() }),
        })
        .openapi({ description: "The partner API's limits (host {partner_url})." }),
      transfers: z
        .object({
          ratePerKeyPerMinute: z.number().int().openapi({
            description:
              "Estimates per customer key per minute window; past it 429 RATE_LIMITED with Retry-After.",
          }),
          providerDeadlineMs: z.number().int().openapi({
            description: "Each bridge provider's deadline; past it the route is `provider-timeout`.",
          }),
          estimateTtlMs: z
            .number()
            .int()
            .openapi({ description: "`expiresAt` is this long after the estimate." }),
          supportedDelaysSeconds: z.array(z.number().int()),
        })
        .openapi({ description: "Transfer estimate limits." }),
    }),
    capabilities: CapabilitiesSchema,
  })
  .openapi("Config");
