import { z } from "@hono/zod-openapi";
import { BUILDER_LIMITS } from "../../builders/limits.ts";
import { CHAIN_ID } from "../../chain/chain.ts";
import { QUOTE_SOURCES } from "../../providers/quote-sources.ts";
import { intParam } from "./builder-params.ts";
import { ChainIdParam } from "./chain-id.ts";
import { Address, BuilderCode, Hash32, Uint } from "./common-patterns.ts";
import { PriceImpactBps } from "./price-impact.ts";
import { AmountInParam, RouteBranch } from "./quote.ts";

const { slippageBps, builderFeeBps } = BUILDER_LIMITS;

/**
 * `GET /api/v2/builders/quote` query, in the order of docs/rules.md, builder quote rule 4 (tokenIn, tokenOut,
 * amountIn, payer, recipient, slippageBps, builderCode, builderFeeBps, provider); strict, so an unknown
 * parameter is a 400 naming it.
 */
export const BuilderQuoteQuerySchema = z
  .strictObject({
    tokenIn: Address.openapi({ description: "Input token; the zero address is native ETH." }),
    tokenOut: Address.openapi({ description: "Output token; the zero address is native ETH." }),
    amountIn: AmountInParam,
    payer: Address.openapi({
      description: "The wallet that will sign and send the swap; the input is pulled from it.",
    }),
    recipient: Address.optional().openapi({
      description:
        "Receives the output; defaults to the payer. Not the zero address nor the executor (400 naming the field).",
    }),
    slippageBps: intParam(slippageBps.min, slippageBps.max)
      .optional()
      .openapi({ description: "1 to 500; default 50. minimumAmountOut = amountOut × (1 − slippage)." }),
    builderCode: BuilderCode.optional().openapi({
      description:
        "Public, case-sensitive attribution code; may differ from the key's workspace; default: the workspace's code.",
    }),
    builderFeeBps: intParam(builderFeeBps.min, builderFeeBps.max).optional().openapi({
      description:
        "0 to 50, at most the builder's on-chain cap; default: the builder's registered default fee.",
    }),
    provider: z.enum(QUOTE_SOURCES).optional().openapi({
      description:
        "Restricts the quote to one source: `service` (Junction's own routes), `aggregator-a` (all its variants), `aggregator-a-direct` or `aggregator-b` (the firm quote). Omitted: every source is compared, as the public quote does, and the winner is prepared. Every source settles through Junction's executor and collector, so attribution and the builder fee apply to all; an aggregator's quote carries no service fee (`routeFee` 0, its own fees are in its price). A provider this deployment has not enabled, or one whose quote fails at the quote block, is 400 UNSUPPORTED_TERMS naming why.",
    }),
    chainId: ChainIdParam.optional().openapi({
      description:
        "Optional: the chain is selected automatically. If given, must be 4663 (else 400 UNSUPPORTED_CHAIN).",
    }),
  })
  .openapi("BuilderQuoteQuery");

export const BuilderQuoteResponseSchema = z
  .object({
    quoteId: Hash32.openapi({
      description:
        "Identifies the quote for swap preparation and receipts; carried on chain into the settlement.",
    }),
    builderCode: BuilderCode,
    chainId: z.literal(CHAIN_ID),
    payer: Address,
    recipient: Address,
    tokenIn: Address,
    tokenOut: Address,
    amountIn: Uint,
    grossAmountOut: Uint.openapi({ description: "Output before the service and builder fees." }),
    routeFee: Uint.openapi({ description: "Service fee, in output-token units." }),
    builderFee: Uint.openapi({ description: "Builder fee, in output-token units." }),
    amountOut: Uint.openapi({ description: "Net output to the recipient: gross − routeFee − builderFee." }),
    minimumAmountOut: Uint.openapi({
      description: "The prepared transaction reverts if the recipient would receive less.",
    }),
    priceImpactBps: PriceImpactBps.openapi({
      description:
        "The selected route's price impact: how far its exact output falls short of the same route at its marginal price at the quote block, in bps rounded half up, from the pool state the search used (LP fees in the price, the service and builder fees not). Above 300 bps (`limits.builder.priceImpactWarningBps` in `/api/v2/config`) `warnings` names it.",
    }),
    fees: z.object({
      routeBps: z.number().int().openapi({ description: "Service fee bps (at most 50)." }),
      builderBps: z
        .number()
        .int()
        .openapi({ description: "Builder fee bps (at most 50 and the builder's cap)." }),
      policyVersion: z
        .number()
        .int()
        .openapi({ description: "Version of the registry's fee schedule read." }),
      builderRecipient: Address.openapi({
        description: "The builder's payout wallet; the zero address when no builder fee is paid.",
      }),
    }),
    expiresAt: z
      .number()
      .int()
      .openapi({ description: "Unix seconds: after it, swap preparation answers 409 PLAN_EXPIRED." }),
    deadline: z
      .number()
      .int()
      .openapi({ description: "Unix seconds: the prepared transaction reverts after it." }),
    settlementAvailable: z.boolean().openapi({
      description:
        "True when the builder is registered on chain: executing the quote records an attributed settlement. False for a local preview.",
    }),
    policySource: z.enum(["onchain", "local-preview"]).openapi({
      description:
        "`onchain`: fees read from the registry at the quote block. `local-preview`: the code is not registered; no registry state applies.",
    }),
    registry: Address.openapi({ description: "The BuilderRegistry the policy was read from." }),
    provider: z.enum(QUOTE_SOURCES).openapi({
      description:
        "The source of the selected route. With an aggregator the transaction still goes to the executor, which forwards the input to the aggregator's contract, measures what came back, pays the builder fee and the rest to the recipient; `expiresAt` and `deadline` never outlive a firm quote's own expiry.",
    }),
    block: z.object({ number: Uint, hash: z.string() }).openapi({ description: "The quote block." }),
    execution: z
      .object({
        status: z.enum(["simulated", "unverified"]),
        gas: Uint.nullable(),
        gasPrice: Uint,
      })
      .openapi({ description: "How the selected route was assessed at the quote block." }),
    routes: z.array(RouteBranch).openapi({
      description:
        "Branches and hops of the selected route; empty when `provider` is an aggregator (it chooses its own pools).",
    }),
    warnings: z.array(z.string()),
  })
  .openapi("BuilderQuote");
