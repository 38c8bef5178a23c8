import { z } from "@hono/zod-openapi";
import { BUILDER_LIMITS, BUILDER_QUOTE_TIMES } from "../../builders/limits.ts";
import { ALLOCATION, PARTIAL_COMPLETION } from "../../builders/multi-plan.ts";
import { CHAIN_ID } from "../../chain/chain.ts";
import { Address as AnyAddress, BuilderCode, exactInput, Uint } from "./common-patterns.ts";

/** Used when `input.slippageBps` is omitted: the builder quote's own default, so a leg means the same either way. */
export const DEFAULT_SLIPPAGE_BPS = BUILDER_QUOTE_TIMES.defaultSlippageBps;

const Address = AnyAddress.openapi({ example: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" });
/** Payer and recipient: a leg with the zero address as either is no builder quote. */
const Account = AnyAddress.refine(
  (value) => !/^0x0{40}$/.test(value),
  "must not be the zero address",
).openapi({
  example: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
});
const Amount = exactInput(Uint).openapi({
  description: "Raw base units, 1 to 2^256 − 1.",
  example: "1000000000",
});
const { slippageBps: slippage, builderFeeBps: builderFee } = BUILDER_LIMITS;
const Slippage = z.number().int().min(slippage.min).max(slippage.max);
const BuilderFee = z.number().int().min(builderFee.min).max(builderFee.max);

const PlanInput = z.strictObject({
  token: Address.openapi({ description: "Token to sell; the zero address is native ETH." }),
  amount: Amount,
});
const PlanOutput = z.strictObject({
  token: Address.openapi({ description: "Token to buy; the zero address is native ETH." }),
  weightBps: z
    .number()
    .int()
    .min(1)
    .max(BUILDER_LIMITS.outputWeightsTotalBps)
    .openapi({ description: "Share of every input this output receives.", example: 5000 }),
});

/**
 * `POST /api/v2/builders/integration` body (docs/rules.md, multi-swap rules 1-2): strict at every level, so
 * an unknown property is a 400 naming it. Rules between fields (weights total, repeated tokens) are checked
 * by the planner.
 */
export const IntegrationBodySchema = z
  .strictObject({
    action: z.literal("multi-plan").openapi({
      description: "The only action: `multi-plan`. Any other string is 400 UNSUPPORTED_ACTION.",
    }),
    input: z.strictObject({
      execution: z.literal("sequential").openapi({ description: "Legs run one after another." }),
      payer: Account.openapi({ description: "Sells the inputs and signs every leg; not the zero address." }),
      recipient: Account.optional().openapi({
        description: "Receives every output; defaults to payer; not the zero address nor the executor.",
      }),
      inputs: z
        .array(PlanInput)
        .min(BUILDER_LIMITS.multiPlanInputs.min)
        .max(BUILDER_LIMITS.multiPlanInputs.max)
        .openapi({ description: "1 to 4 inputs with distinct tokens." }),
      outputs: z
        .array(PlanOutput)
        .min(BUILDER_LIMITS.multiPlanOutputs.min)
        .max(BUILDER_LIMITS.multiPlanOutputs.max)
        .openapi({ description: "1 to 4 outputs with distinct tokens; weightBps must total 10000." }),
      slippageBps: Slippage.optional().openapi({
        description: `Copied into every leg; default ${DEFAULT_SLIPPAGE_BPS}.`,
        example: 50,
      }),
      builderCode: BuilderCode.optional().openapi({
        description: "Public attribution code; defaults to the key's workspace code. Must be registered.",
        example: "junction-demo",
      }),
      builderFeeBps: BuilderFee.optional().openapi({
        description:
          "Builder fee of every leg; defaults to the builder's registered default fee. At most the builder's registered cap.",
        example: 10,
      }),
    }),
  })
  .openapi("MultiPlanRequest");

const PlanLeg = z
  .object({
    chainId: z.literal(CHAIN_ID),
    payer: Address,
    recipient: Address,
    tokenIn: Address,
    tokenOut: Address,
    amountIn: Uint.openapi({ description: "Raw base units.", example: "500000000" }),
    builderCode: BuilderCode,
    builderFeeBps: z.number().int(),
    slippageBps: z.number().int(),
  })
  .openapi("PlanLeg", {
    description:
      "Every field is always present. Apart from `chainId`, a leg's fields are exactly the query of one `GET /api/v2/builders/quote`. Addresses are lowercase.",
  });

/** The multi-swap plan (docs/rules.md, multi-swap rule 4). */
export const MultiSwapPlanSchema = z
  .object({
    chainId: z.literal(CHAIN_ID),
    execution: z.literal("sequential"),
    atomic: z.literal(false).openapi({ description: "Legs are separate transactions." }),
    payer: Address,
    recipient: Address,
    legs: z.array(PlanLeg).min(BUILDER_LIMITS.planLegs.min).max(BUILDER_LIMITS.planLegs.max).openapi({
      description:
        "One leg per (input, output) pair whose tokens differ, in input order then output order. An output equal to its input's token needs no swap: that share stays with the payer and gets no leg.",
    }),
    swapCount: z.number().int().openapi({ description: "legs.length" }),
    allocation: z.literal(ALLOCATION).openapi({
      description:
        "Each input is split by the output weights, rounding down; the last output takes the remainder, so an input's shares sum exactly to its amount.",
    }),
    partialCompletion: z.literal(PARTIAL_COMPLETION).openapi({
      description: "Not atomic: if a later leg stops, the legs already completed stay completed.",
    }),
  })
  .openapi("MultiSwapPlan");
