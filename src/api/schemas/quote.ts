import { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";
import { QUOTE_SOURCES } from "../../providers/quote-sources.ts";
import { ChainIdParam } from "./chain-id.ts";
import { Address, exactInput, RawAmount, Uint } from "./common-patterns.ts";
import { PriceImpactBps } from "./price-impact.ts";

/** An exact input amount in raw units, as a query parameter (public, builder and partner quotes). */
export const AmountInParam = exactInput(RawAmount).openapi({
  description: "Exact input in raw base units, 1 to 2^256 − 1.",
  example: "1000000000000000000",
});

/** `GET /api/v2/quote` query: strict, so an unknown parameter is a 400 naming it. */
export const QuoteQuerySchema = z
  .strictObject({
    chainId: ChainIdParam,
    tokenIn: Address.openapi({ description: "Input token; the zero address is native ETH." }),
    tokenOut: Address.openapi({ description: "Output token; the zero address is native ETH." }),
    amountIn: AmountInParam,
    provider: z
      .enum(QUOTE_SOURCES)
      .optional()
      .openapi({ description: "Restrict the comparison to one source." }),
  })
  .openapi("QuoteQuery");

const Hop = z.object({
  kind: z.enum(["v2", "v3", "v4"]),
  pool: z.string().openapi({ description: "Pool address (V2/V3) or pool id (V4)." }),
  tokenIn: Address,
  tokenOut: Address,
  fee: z.number().int().openapi({ description: "Pool LP fee in hundredths of a bip." }),
  tickSpacing: z.number().int().optional(),
  amountIn: Uint,
  amountOut: Uint,
});

/** One branch of a direct-pool route: its share of the input and its hops, in execution order. */
export const RouteBranch = z
  .object({ amountIn: Uint, amountOut: Uint, hops: z.array(Hop) })
  .openapi("RouteBranch");

const Execution = z.object({
  status: z.enum(["simulated", "unverified", "failed", "expired"]).openapi({
    description:
      "simulated: the full calldata ran at the block; unverified: it could not be checked (not proof of executability); failed: it reverted; expired: a firm quote past its deadline.",
  }),
  amountOut: Uint.nullable().openapi({
    description: "Assessed output to the recipient (simulated); null when not simulated.",
  }),
  gasPrice: Uint.openapi({
    description: "The one gas price shared by every candidate; not a fee or fill guarantee.",
  }),
  gas: Uint.nullable().openapi({
    description:
      "Gas of the full transaction at the block, measured in the simulating call (eth_simulateV1's figure, as a receipt reports it; before refunds on a node without eth_simulateV1).",
  }),
  gasCostOut: Uint.nullable().openapi({
    description: "gas × gasPrice in output-token units; null without a conversion.",
  }),
  reason: z
    .enum([
      "unsupported-token-layout",
      "rpc-unavailable",
      "reverted",
      "insufficient-output",
      "expired",
      "provider-binding-mismatch",
      "token-transfer-fee",
    ])
    .optional()
    .openapi({
      description:
        "Closed reason when not simulated. `token-transfer-fee`: the candidate reverted, and a token it moves takes a fee on transfer (named in `transferFee`; the executor refuses a taxed input, and a taxed token arrives short of what the pools quote).",
    }),
  transferFee: z
    .object({
      token: Address,
      bps: z
        .number()
        .int()
        .openapi({ description: "The fee, simulated at the quote block, in bps rounded up." }),
    })
    .optional()
    .openapi({ description: "With reason `token-transfer-fee`: the taxed token that explains the failure." }),
  stage: z.enum(["validation", "fixture", "simulation", "gas-estimate"]).optional().openapi({
    description:
      "Where the check stopped: validating a third-party transaction's bindings and expiry, building the balance/allowance fixture, the call, or the gas estimate.",
  }),
});

const ComparisonEntry = z
  .object({
    id: z.string(),
    provider: z.enum(QUOTE_SOURCES),
    variant: z.string().nullable().openapi({
      description:
        "The provider's variant: aggregator-a's `default`, `direct`, `v2-only` or `v3-only`, aggregator-b's `firm`; null for Junction's own routes.",
    }),
    description: z.string().openapi({ example: "2 branches, 3 hops" }),
    feeBps: z.number().int().openapi({
      description:
        "The service fee this candidate carries: 0 on third-party quotes, whose own fees are in their price.",
    }),
    amountOut: Uint.openapi({ description: "The candidate's original quote." }),
    priceImpactBps: PriceImpactBps,
    execution: Execution,
    selected: z.boolean(),
  })
  .openapi("ComparisonEntry", {
    description: "Display only: no calldata; cannot be submitted as a swap plan.",
  });

export const QuoteResponseSchema = z
  .object({
    chainId: z.literal(CHAIN_ID),
    tokenIn: Address,
    tokenOut: Address,
    amountIn: Uint,
    provider: z.enum(QUOTE_SOURCES).openapi({ description: "Source of the selected candidate." }),
    amountOut: Uint.openapi({
      description: "The selected candidate's original quote, to the recipient after the service fee.",
    }),
    priceImpactBps: PriceImpactBps.openapi({
      description: "The selected route's price impact (see ComparisonEntry).",
    }),
    fee: z.object({
      bps: z
        .number()
        .int()
        .openapi({ description: "Service fee on output, at most 50 bps; 0 on aggregator quotes." }),
      amount: Uint,
      policyVersion: z.number().int().nullable(),
    }),
    block: z
      .object({ number: Uint, hash: z.string() })
      .openapi({ description: "The one block every candidate was assessed at." }),
    route: z.array(RouteBranch).openapi({
      description: "Branches of the selected direct-pool route (empty for aggregator candidates).",
    }),
    execution: Execution.extend({ block: Uint }),
    comparison: z.array(ComparisonEntry),
    search: z
      .object({
        pools: z
          .number()
          .int()
          .openapi({ description: "Verified pools loaded for the search (at most 96)." }),
        paths: z.number().int().openapi({ description: "Executable paths of up to 3 hops considered." }),
        fallbackProbe: z.object({ keys: z.number().int(), found: z.number().int() }).nullable().openapi({
          description:
            "The V4 fallback probe, run only when nothing else connected the pair (at most 28 keys).",
        }),
        widenedPools: z.number().int().openapi({
          description:
            "Concentrated pools whose ticks were loaded past the first window because a trade moved their price that far (large trades).",
        }),
      })
      .openapi({ description: "Diagnostics of the search; not part of the quote's terms." }),
    warnings: z.array(z.string()),
  })
  .openapi("Quote");
