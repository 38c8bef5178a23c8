import { z } from "@hono/zod-openapi";
import { ASSET_TAG_PATTERN } from "../../transfers/assets.ts";
import {
  BRIDGE_PROVIDER_IDS,
  PROVIDER_FEE_NAMES,
  ROUTE_UNAVAILABLE_REASONS,
} from "../../transfers/bridge-provider.ts";
import { DECIMAL_AMOUNT_PATTERN } from "../../transfers/decimal-amount.ts";
import { LAUNCH_BLOCKERS, PARTNER_COMMISSION_POLICY } from "../../transfers/estimate-transfer.ts";
import { RESERVED_FEE_BPS, TRANSFER_FEE_DISCLOSURE } from "../../transfers/fees.ts";
import { TRANSFER_LIMITS } from "../../transfers/limits.ts";
import { Address } from "./common-patterns.ts";

const AssetTag = z
  .string()
  .regex(ASSET_TAG_PATTERN, "must be ETH:<chainId>, STABLE:<chainId> or <chainId> (ETH)")
  .openapi({ example: "ETH:1" });

const DecimalAmount = z
  .string()
  .regex(DECIMAL_AMOUNT_PATTERN, "must be a decimal amount: up to 21 integer and 18 fraction digits")
  .openapi({ pattern: DECIMAL_AMOUNT_PATTERN.source, example: "1.5" });

/**
 * `GET /api/transfers/v1/routes` query (docs/rules.md, transfer estimate rules 1 and 4; names ours): strict,
 * so any other parameter is a 400 naming it.
 */
export const TransferRoutesQuerySchema = z
  .strictObject({
    inputAsset: AssetTag.optional().openapi({
      description:
        "The asset sent: `ETH:<chainId>` or `STABLE:<chainId>` (the stable asset, USDC); a bare `<chainId>` omits the asset, which defaults to ETH. Omitted entirely: `ETH:4663`. Chains: 1, 10, 8453, 42161 and 4663 (STABLE on 4663 when the deployment lists USDC); `/api/v2/config` lists every accepted tag.",
      example: "ETH:1",
    }),
    outputAsset: AssetTag.optional().openapi({
      description:
        "The asset received, in the same form and with the same defaults. Must differ from `inputAsset`.",
      example: "STABLE:8453",
    }),
    amount: DecimalAmount.openapi({
      description:
        "The gross input in asset units (not base units): `0` or up to 21 integer digits, and up to 18 fraction digits for ETH, 6 for STABLE.",
      example: "1.5",
    }),
    delaySeconds: z
      .string()
      .regex(/^[0-9]{1,9}$/, "must be an integer number of seconds")
      .optional()
      .openapi({
        description:
          "Requested delay before delivery. Only `0` (the default) is supported; anything else is 400.",
      }),
  })
  .openapi("TransferRoutesQuery");

const Amount = z.string().openapi({ pattern: DECIMAL_AMOUNT_PATTERN.source });

const TransferRouteSchema = z
  .object({
    provider: z.enum(BRIDGE_PROVIDER_IDS).openapi({ description: "The bridge provider of this route." }),
    status: z.enum(["quoted", "unavailable"]),
    reason: z.enum(ROUTE_UNAVAILABLE_REASONS).nullable().openapi({
      description:
        "Why the route has no estimate (null when quoted): `unsupported-pair` (the provider does not serve this asset or chain pair), `amount-below-minimum`, `amount-above-maximum`, `no-quote` (declined without a reason), `provider-timeout` (no answer within its 3 s deadline), `provider-error` (unreachable or an error status), `provider-malformed` (an answer that did not parse or did not match the request), `provider-not-configured`.",
    }),
    estimatedOutput: Amount.nullable().openapi({
      description:
        "This route's estimated payout in output-asset units, after its fees; null when unavailable.",
    }),
    providerFees: z
      .array(
        z.object({
          name: z.enum(PROVIDER_FEE_NAMES),
          amount: Amount,
          asset: z.enum(["ETH", "STABLE"]).openapi({ description: "The asset the fee is counted in." }),
        }),
      )
      .openapi({
        description: "The provider's fees, already inside `estimatedOutput` (empty when unavailable).",
      }),
    partnerCommissionBps: z.number().int().nullable().openapi({
      description:
        "The partner commission this provider reports paying the service (inside its estimate; unverified); null when none is reported.",
    }),
    providerEstimatedSeconds: z.number().nullable().openapi({
      description: "The provider's own fill-time estimate; not a delivery promise. Null when unknown.",
    }),
    launchBlockers: z.array(z.enum(LAUNCH_BLOCKERS)).openapi({
      description:
        "What keeps this route from going live: `transfer-creation-disabled`, `fee-collection-disabled`, `launch-evidence-missing`.",
    }),
    liveEnabled: z.literal(false),
  })
  .openapi("TransferRoute");

/** The transfer estimate resource (docs/rules.md, transfer estimate rules 1-6). */
export const TransferEstimateSchema = z
  .object({
    routeFeeBps: z.literal(RESERVED_FEE_BPS).openapi({
      description:
        "The reserved direct fee, charged once on the gross input when collection is activated (legacy field covering only that surcharge).",
    }),
    inputAsset: z.string().openapi({ example: "ETH:1" }),
    outputAsset: z.string().openapi({ example: "STABLE:8453" }),
    inputAmount: Amount.openapi({
      description: "The gross input, as asked (normalised: no trailing zeros).",
    }),
    routeFeeAmount: Amount.openapi({
      description:
        "20 bps of the input, rounded up to the input asset's base unit (1 wei, or 0.000001 STABLE).",
    }),
    providerInputAmount: Amount.openapi({
      description: "`inputAmount` − `routeFeeAmount`: what providers are asked to move.",
    }),
    estimatedOutput: Amount.nullable().openapi({
      description:
        "The best route's estimated payout after the reserved fee and provider costs, rounded down to the output asset's base unit; null when unavailable. Not a guaranteed payout.",
    }),
    status: z.enum(["quoted", "unavailable"]).openapi({
      description:
        "`quoted` when at least one route has an estimate; a later request may answer differently.",
    }),
    selectedProvider: z.enum(BRIDGE_PROVIDER_IDS).nullable().openapi({
      description: "The route `estimatedOutput` comes from (the highest estimate); null when unavailable.",
    }),
    expiresAt: z
      .number()
      .int()
      .openapi({
        description: `Unix milliseconds when the displayed estimate should be refreshed (${TRANSFER_LIMITS.estimateTtlMs / 1000} s after it was made); not a provider funding deadline.`,
      }),
    liveEnabled: z.literal(false).openapi({
      description: "Execution availability: false until launch evidence and the runtime are configured.",
    }),
    delaySeconds: z.number().int().openapi({ description: "The delay the estimate is for (always 0)." }),
    supportedDelaysSeconds: z
      .array(z.number().int())
      .openapi({ description: "Delays that are supported: `[0]`." }),
    fees: z
      .object({
        directRouteFeeBps: z.literal(RESERVED_FEE_BPS),
        partnerCommissionPolicy: z.literal(PARTNER_COMMISSION_POLICY).openapi({
          description:
            "Commission a provider already pays the service is retained by it and is included in the estimate.",
        }),
        partnerCommissionIncludedInEstimate: z.literal(true),
        partnerCommissionBps: z.number().int().nullable().openapi({
          description:
            "The selected route's reported commission rate; null when it reports none or nothing is quoted.",
        }),
        partnerCommissionRateVerified: z.literal(false),
        disclosure: z.string().openapi({ example: TRANSFER_FEE_DISCLOSURE }),
        collectionEnabled: z.literal(false),
        treasury: Address.openapi({
          description: "Where the reserved fee would go once collected (the registry's treasury).",
        }),
      })
      .openapi({ description: "Full fee disclosure." }),
    routes: z.array(TransferRouteSchema).openapi({
      description: "One entry per bridge provider, quoted or not, so a client sees which declined and why.",
    }),
  })
  .openapi("TransferEstimate");
