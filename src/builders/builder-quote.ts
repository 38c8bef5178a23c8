import { randomBytes } from "node:crypto";
import { type Address, type Hex, toHex } from "viem";
import type { CHAIN_ID } from "../chain/chain.ts";
import type { Contracts } from "../config/deployment.ts";
import type { QuoteSource } from "../providers/quote-sources.ts";
import {
  buildExecutableQuote,
  type ExecutableQuote,
  type ExecutableQuoteDeps,
} from "../quote/executable-quote.ts";
import { type ExecutionRequest, executionDeadline, minimumFor } from "../quote/execution-terms.ts";
import { QuoteError, type QuoteRequest, type QuoteResult } from "../quote/quote-types.ts";
import { settledFigures } from "../quote/through-executor.ts";
import { insertBuilderQuote } from "../store/repositories/builder-quotes.ts";
import type { Db } from "../store/schema.ts";
import { builderIdOf } from "./builder-code.ts";
import { keyIdHashOf } from "./key-id-hash.ts";
import { BUILDER_LIMITS, BUILDER_QUOTE_TIMES } from "./limits.ts";

export type BuilderQuoteRequest = {
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  payer: Address;
  recipient: Address;
  slippageBps: number;
  builderCode: string;
  builderFeeBps?: number;
  provider?: QuoteSource;
};

/** An issued builder quote (docs/rules.md, builder quote rule 2) in domain types, plus its transaction. */
export type BuilderQuote = {
  quoteId: Hex;
  request: BuilderQuoteRequest;
  builderId: Hex;
  grossAmountOut: bigint;
  routeFee: bigint;
  builderFee: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  /** The selected route's price impact in bps at the quote block (docs/rules.md, price impact rule 3). */
  priceImpactBps: number | null;
  fees: { routeBps: number; builderBps: number; policyVersion: number; builderRecipient: Address };
  policySource: "onchain" | "local-preview";
  settlementAvailable: boolean;
  /** Unix seconds until which a swap preparation accepts the quote. */
  expiresAt: number;
  /** Unix seconds after which the prepared transaction reverts. */
  deadline: number;
  tx: { to: Address; data: Hex; value: bigint; chainId: typeof CHAIN_ID };
  result: QuoteResult;
  warnings: string[];
};

export type BuilderQuoteDeps = Omit<ExecutableQuoteDeps, "contracts"> & {
  db: Db;
  contracts: Contracts;
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  now: () => number;
};

/**
 * An attributed quote (docs/rules.md, builder quote rules 1-5): the shared comparison pipeline priced with
 * the builder's fees from the registry at the quote block, every candidate built into the exact transaction
 * a swap preparation will return (recipient, minimum received, deadline, builder id, quote id and key id
 * hash) and run through the executor at the quote block; then the executable-quote step shared with the
 * partner quote, which takes the winner's run as the transaction's proof (it builds and runs it only when
 * the minimum depends on what a third-party run delivered); then the record saved for swap preparation and
 * receipts. A transaction that reverts
 * or delivers other than the quote is refused (NO_EXECUTABLE_ROUTE); one that could not be run (an input
 * whose balance layout cannot be set, a node that did not answer) is kept with a warning, as unverified.
 *
 * `policySource` is `onchain` when the registry knows the builder at the block; `local-preview` when no
 * registry state applies (an unregistered code): fees are then a preview, nothing would be paid to the
 * builder, and `settlementAvailable` is false.
 */
export async function issueBuilderQuote(
  deps: BuilderQuoteDeps,
  principal: { keyId: string; workspaceId: string },
  request: BuilderQuoteRequest,
  signal: AbortSignal,
): Promise<BuilderQuote> {
  const builderId = builderIdOf(request.builderCode);
  const quoteId = toHex(randomBytes(32));
  const nowSeconds = BigInt(Math.floor(deps.now() / 1000));
  const attribution = { quoteId, keyIdHash: keyIdHashOf(principal.keyId) };
  // Every candidate is built into the exact transaction a swap preparation returns (recipient, minimum,
  // deadline, builder id, quote id and key id hash), so the winner's run at the quote block is that
  // transaction's (execution-terms.ts).
  const execution: ExecutionRequest = {
    recipient: request.recipient,
    minimum: { slippageBps: request.slippageBps },
    deadline: { from: nowSeconds, seconds: BigInt(BUILDER_QUOTE_TIMES.transactionDeadlineSeconds) },
    attribution,
  };
  // Every source is compared (or the one named); third-party sources are run through the executor, so
  // whichever wins carries the attribution and the builder fee (docs/rules.md, builder quote rule 4).
  const result = await deps.quote(
    {
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      amountIn: request.amountIn,
      ...(request.provider ? { provider: request.provider } : {}),
      builder: {
        id: builderId,
        ...(request.builderFeeBps === undefined ? {} : { feeBps: request.builderFeeBps }),
      },
      throughExecutor: true,
      execution,
    },
    signal,
  );
  const { selected, fees } = result;
  const onchain = fees.builder?.registered === true;
  const figures = settledFigures(selected);
  const amountOut = figures.amountOut;
  const minimumAmountOut = minimumFor(execution.minimum, amountOut);
  // Wall clock or the quote block's time, whichever is later (a devnet's clock may run ahead).
  const base = Math.max(Number(nowSeconds), Number(result.block.timestamp));
  // A firm quote is honoured until its own expiry: neither the quote nor the transaction outlives it.
  const firm = selected.expiresAt === undefined ? Number.POSITIVE_INFINITY : Number(selected.expiresAt);
  const expiresAt = Math.min(base + BUILDER_QUOTE_TIMES.quoteTtlSeconds, firm);
  const deadline = Number(executionDeadline(execution.deadline, result.block.timestamp, selected.expiresAt));
  const executable = await buildExecutableQuote(
    { client: deps.client, contracts: deps.contracts, fixtures: deps.fixtures },
    result,
    {
      recipient: request.recipient,
      minOut: minimumAmountOut,
      deadline: BigInt(deadline),
      attribution,
    },
  );
  const { tx, unverified } = transactionOf(executable);
  const warnings = [...result.warnings];
  if (unverified)
    warnings.push("the transaction for this recipient could not be run at the quote block; it is unverified");
  const priceImpactBps = selected.priceImpactBps ?? null;
  const impactWarning = priceImpactWarning(priceImpactBps);
  if (impactWarning) warnings.push(impactWarning);
  if (!onchain)
    warnings.push(
      "the builder code is not registered on chain: fees are a local preview and no settlement is available",
    );

  const quote: BuilderQuote = {
    quoteId,
    request,
    builderId,
    grossAmountOut: figures.grossAmountOut,
    routeFee: figures.serviceFee,
    builderFee: figures.builderFee,
    amountOut,
    minimumAmountOut,
    priceImpactBps,
    fees: {
      // No service fee on a third-party source's quote (docs/rules.md, fee rule 2).
      routeBps: selected.provider === "service" ? fees.serviceFeeBps : 0,
      builderBps: fees.builderBps,
      policyVersion: fees.policyVersion,
      builderRecipient: fees.builderRecipient,
    },
    policySource: onchain ? "onchain" : "local-preview",
    settlementAvailable: onchain,
    expiresAt,
    deadline,
    tx,
    result,
    warnings,
  };
  await insertBuilderQuote(deps.db, {
    id: quoteId,
    workspace_id: principal.workspaceId,
    key_id: principal.keyId,
    builder_code: request.builderCode,
    payer: request.payer,
    recipient: request.recipient,
    token_in: request.tokenIn,
    token_out: request.tokenOut,
    amount_in: request.amountIn,
    gross_amount_out: quote.grossAmountOut,
    route_fee: quote.routeFee,
    builder_fee: quote.builderFee,
    amount_out: amountOut,
    minimum_amount_out: minimumAmountOut,
    route_fee_bps: quote.fees.routeBps,
    builder_fee_bps: fees.builderBps,
    policy_version: fees.policyVersion,
    policy_source: quote.policySource,
    builder_recipient: fees.builderRecipient,
    settlement_available: quote.settlementAvailable,
    block_number: result.block.number,
    tx_to: tx.to,
    tx_data: tx.data,
    tx_value: tx.value,
    deadline: new Date(deadline * 1000),
    expires_at: new Date(expiresAt * 1000),
  });
  return quote;
}

/**
 * The warning a builder quote carries when its route moves the price more than
 * `BUILDER_LIMITS.priceImpactWarningBps` (docs/rules.md, price impact rule 3).
 */
export function priceImpactWarning(bps: number | null): string | undefined {
  if (bps === null || bps <= BUILDER_LIMITS.priceImpactWarningBps) return undefined;
  return `price impact ${formatBps(bps)} is above ${formatBps(BUILDER_LIMITS.priceImpactWarningBps)}: the route's output is ${bps} bps below its marginal price at the quote block`;
}

/** Bps as a percentage with two decimals (e.g. 312 → "3.12%"), from integers alone. */
const formatBps = (bps: number) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, "0")}%`;

/**
 * The step's transaction when it delivered the quote, or when it could not be run at all (kept, flagged
 * unverified, as the comparison keeps such candidates); a transaction that reverted or delivered other than
 * the quote is NO_EXECUTABLE_ROUTE.
 */
function transactionOf(executable: ExecutableQuote): { tx: BuilderQuote["tx"]; unverified: boolean } {
  if (executable.ok) return { tx: executable.tx, unverified: false };
  const couldNotRun =
    executable.reason === "unsupported-token-layout" || executable.reason === "rpc-unavailable";
  if (couldNotRun && executable.tx) return { tx: executable.tx, unverified: true };
  throw new QuoteError(
    "NO_EXECUTABLE_ROUTE",
    `the transaction for this recipient did not deliver the quote at the quote block (${executable.reason})`,
  );
}
