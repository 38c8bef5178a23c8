import { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";
import { PARTNER_LIMITS } from "../../partners/limits.ts";
import { PARTNER_QUOTE_ERRORS } from "../../partners/partner-quote.ts";
import { QUOTE_SOURCES } from "../../providers/quote-sources.ts";
import { REQUEST_ID_PATTERN } from "../request-id.ts";
import { intParam } from "./builder-params.ts";
import { Address, Hash32, RawAmount, Uint } from "./common-patterns.ts";
import { PriceImpactBps } from "./price-impact.ts";
import { AmountInParam } from "./quote.ts";

const { slippageBps, deadlineSeconds } = PARTNER_LIMITS;
const swapPermission = "Needs a key with swap permission (else 403).";

/**
 * `GET {partner_url}/quote` query (docs/rules.md, partner quote rules 3 and 4): strict, so any other
 * parameter is a 400 naming it.
 */
export const PartnerQuoteQuerySchema = z
  .strictObject({
    in: Address.openapi({ description: "Input token; the zero address is native ETH." }),
    out: Address.openapi({ description: "Output token; the zero address is native ETH." }),
    amount: AmountInParam,
    recipient: Address.optional().openapi({
      description: `Receives the output; setting it adds \`tx\` and \`swap\`. Not the zero address (nor the executor). ${swapPermission}`,
    }),
    slippageBps: intParam(slippageBps.min, slippageBps.max)
      .optional()
      .openapi({
        description: `${slippageBps.min} to ${slippageBps.max}, default ${slippageBps.default}: \`swap.minOut\` = \`swap.netOut\` × (1 − slippage), rounded down. ${swapPermission}`,
      }),
    minOut: RawAmount.optional().openapi({
      description: `Raw units after fees; overrides slippageBps. Above \`swap.netOut\` the answer is \`ok: false\` with \`error: "min-out-above-net-out"\` (the quote figures included). ${swapPermission}`,
    }),
    deadline: z
      .string()
      .regex(/^[1-9][0-9]{0,11}$/, "must be Unix seconds")
      .optional()
      .openapi({
        description: `Unix seconds, between now and now + ${deadlineSeconds.max}; default now + ${deadlineSeconds.default}. The transaction reverts after it. ${swapPermission}`,
      }),
  })
  .openapi("PartnerQuoteQuery");

/** The optional `x-request-id` header (docs/rules.md, partner quote rule 5). */
export const RequestIdHeaderSchema = z.object({
  "x-request-id": z.string().regex(REQUEST_ID_PATTERN).optional().openapi({
    description:
      "A trace id (1 to 128 characters of `A-Z a-z 0-9 . _ : -`; else 400), echoed in the `x-request-id` response header and in `requestId`. A UUID is generated when it is absent.",
  }),
});

const SwapLeg = z
  .object({
    pool: z.string().openapi({ description: "Pool address (V2, V3) or pool id (V4)." }),
    source: z.enum(["uniswap-v2", "uniswap-v3", "uniswap-v4"]),
    kind: z.enum(["constant-product", "concentrated-liquidity"]),
    tokenIn: Address.openapi({ description: "Native ETH shows as WETH." }),
    tokenOut: Address.openapi({ description: "Native ETH shows as WETH." }),
    amountIn: Uint,
    amountOut: Uint,
  })
  .openapi("PartnerSwapLeg");

/** The partner quote resource (docs/rules.md, partner quote rules 1, 5-8; errors: partner). */
export const PartnerQuoteResponseSchema = z
  .object({
    requestId: z.string().openapi({ description: "The `x-request-id` sent, or a generated UUID." }),
    ok: z
      .boolean()
      .openapi({ description: "true when a swap was found (and built and run, with recipient)." }),
    error: z.enum(PARTNER_QUOTE_ERRORS).optional().openapi({
      description:
        "Only when ok is false, a closed list: `unknown-token` (in or out has no contract), `no-route` (no verified pool path for this amount), `no-executable-route` (every candidate reverted or delivered less than quoted; with a recipient, every candidate is run as the transaction for it, its minimum and deadline, so a recipient refusing the output ends here too), `token-transfer-fee` (the same, explained by a token of the trade that takes a fee on transfer, simulated at the quote block: `GET /tokens` reports it), `unsupported-token` (the input's balance cannot be set exactly for a run, e.g. a rebasing token: nothing could be proven), `gas-exceeds-output` (the swap's gas costs more than its output, e.g. a dust amount: the figures are included but `netOut`, which would be negative), `min-out-above-net-out`, `simulation-failed` (the transaction for this recipient, minimum and deadline reverted at the quote block when it had to be built again: a third-party source's run delivered other than its quote, which moved the slippage minimum), `output-mismatch` (it ran but did not deliver exactly swap.netOut), `block-reorged`, `upstream-unavailable` (the chain node did not answer), `timeout` (past the 25 s deadline).",
    }),
    block: z.object({ number: Uint, hash: Hash32 }).optional().openapi({
      description:
        "The block at which the quote is exact: always when ok is true, and when ok is false once a block was pinned.",
    }),
    tokenIn: Address,
    tokenOut: Address,
    amountIn: Uint,
    source: z.enum(QUOTE_SOURCES).optional().openapi({
      description:
        "Who the selected route is from: `service` (Junction's own pools) or a third-party aggregator (`aggregator-a`, `aggregator-a-direct`, `aggregator-b`). Every source runs through the executor: an aggregator's transaction is forwarded by it, with no service fee (fee 0) and `swaps` empty (its pools are the aggregator's). Present whenever amountOut is.",
    }),
    amountOut: Uint.optional().openapi({
      description:
        "Output BEFORE the service fee (the public `GET /api/v2/quote` reports `amountOut` after it). Present when ok is true, and when ok is false because only building for the terms failed.",
    }),
    gas: Uint.optional().openapi({
      description:
        "Gas of the swap at the quote block, measured in the simulating call (eth_simulateV1's figure, as a receipt reports it; before refunds on a node without eth_simulateV1).",
    }),
    gasCostOut: Uint.optional().openapi({
      description:
        "gas × gas price in output-token units; 0 when no conversion into the output token exists.",
    }),
    netOut: Uint.optional().openapi({
      description:
        'amountOut − gasCostOut: a ranking figure that excludes the service fee. Never negative: when gasCostOut exceeds amountOut the answer is `ok: false` with `error: "gas-exceeds-output"` and no netOut.',
    }),
    priceImpactBps: PriceImpactBps.optional().openapi({
      description:
        "The route's price impact: how far its exact output (amountOut) falls short of the same route at its marginal price at the quote block, in bps rounded half up, from the pool state the search used (LP fees in the price, the service fee not). Present with the other figures.",
    }),
    tx: z
      .object({
        to: Address.openapi({ description: "The executor." }),
        data: z.string().openapi({ description: "Hex calldata; send it as returned." }),
        value: Uint.openapi({ description: "Wei: amountIn for native ETH input, else 0." }),
        chainId: z.literal(CHAIN_ID),
      })
      .optional()
      .openapi({ description: "Only with recipient and ok true: the unsigned transaction, already run." }),
    swap: z
      .object({
        amountOut: Uint.openapi({ description: "Output before the service fee." }),
        fee: Uint.openapi({ description: "Service fee in output-token units." }),
        feeBps: z.number().int(),
        netOut: Uint.openapi({
          description: "What the recipient receives after the fee: exactly what the run delivered.",
        }),
        minOut: Uint.openapi({ description: "The transaction reverts below it." }),
        deadline: z
          .number()
          .int()
          .openapi({ description: "Unix seconds; the transaction reverts after it." }),
        recipient: Address,
        executorGas: Uint.openapi({
          description: "Gas of the transaction run through the executor at the block.",
        }),
        spender: Address.openapi({ description: "Approve amountIn to it for ERC-20 input; equals tx.to." }),
      })
      .optional()
      .openapi({ description: "Only with recipient and ok true." }),
    swaps: z.array(SwapLeg).optional().openapi({
      description:
        "Each pool swap in execution order; native ETH legs show the wrapped token. Empty when `source` is an aggregator (it chooses its own pools).",
    }),
  })
  .openapi("PartnerQuote");
