import type { Address } from "viem";
import { type AggregatorEntry, buildExecutorAggregatorSwap } from "../routing/aggregator-calldata.ts";
import { SYNTHETIC_CALLER } from "../simulation/synthetic-caller.ts";
import { type CalldataTerms, candidateTerms } from "./execution-terms.ts";
import { SIMULATION_DEADLINE_S } from "./limits.ts";
import type { Assessment, Candidate, FeeTerms, QuoteRequest } from "./quote-types.ts";

/** The executor entry that forwards each third-party source's transaction. */
function entryOf(provider: Candidate["provider"]): AggregatorEntry | undefined {
  if (provider === "aggregator-a" || provider === "aggregator-a-direct") return "router";
  if (provider === "aggregator-b") return "allowance-holder";
  return undefined;
}

/**
 * A third-party candidate (its transaction built with the executor as taker, paying the executor or, without
 * a builder fee, the swap's recipient: `payDirectly`) wrapped into
 * `Executor.swapThroughAggregator` (docs/rules.md, ours: aggregator execution) with the quote's fee terms, sent by the synthetic caller like Junction's
 * own routes: the executor pulls the input, hands it to the provider's contract, measures what came back,
 * pays the builder fee and no service fee (docs/rules.md, fee rule 2) and pays the rest to the recipient:
 * the request's, with its minimum and deadline, when it carries them (execution-terms.ts), else the
 * synthetic caller with the quote itself as the minimum. Its quoted figures are the provider's amount less
 * the builder fee; a candidate delivering less than it promised fails, never passes (assess-candidate.ts).
 * A candidate already refused (binding mismatch) keeps its provider transaction: it is never run.
 */
export function throughExecutor(
  candidate: Candidate,
  request: QuoteRequest,
  terms: { executor: Address; fees: FeeTerms; timestamp: bigint },
): Candidate {
  const entry = entryOf(candidate.provider);
  if (!entry || candidate.bindingMismatch) return candidate;
  const { executor, fees } = terms;
  const gross = candidate.grossAmountOut;
  const builderFee = (gross * BigInt(fees.builderBps)) / 10_000n;
  const amountOut = gross - builderFee;
  const aggregatorCall = { entry, data: candidate.tx.data, pays: candidate.providerRecipient ?? executor };
  const built: CalldataTerms = request.execution
    ? candidateTerms(request.execution, amountOut, terms, candidate.expiresAt)
    : { recipient: SYNTHETIC_CALLER, minOut: amountOut, deadline: terms.timestamp + SIMULATION_DEADLINE_S };
  const tx = buildExecutorAggregatorSwap({
    executor,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn,
    minOut: built.minOut,
    recipient: built.recipient,
    deadline: built.deadline,
    maxRouteFeeBps: 0,
    maxBuilderFeeBps: fees.builderBps,
    ...(request.builder ? { builderId: request.builder.id } : {}),
    ...(built.attribution ?? {}),
    entry,
    data: aggregatorCall.data,
  });
  return {
    ...candidate,
    amountOut,
    serviceFeeBps: 0,
    serviceFee: 0n,
    builderFee,
    aggregatorCall,
    terms: built,
    tx: { to: tx.to, data: tx.data, value: tx.value },
    spender: executor,
  };
}

/**
 * What the selected candidate settles as: gross output, service fee, builder fee and the recipient's
 * output. Junction's own routes are exact, so their quoted figures are what the executor pays; a
 * third-party candidate run through the executor is what the run measured at the quote block (its quote
 * is the provider's promise; the run is what the transaction does).
 */
export function settledFigures(selected: Assessment): {
  grossAmountOut: bigint;
  serviceFee: bigint;
  builderFee: bigint;
  amountOut: bigint;
} {
  const simulation = selected.simulation;
  if (selected.aggregatorCall && simulation.status === "simulated" && simulation.grossAmountOut !== undefined)
    return {
      grossAmountOut: simulation.grossAmountOut,
      serviceFee: 0n,
      builderFee: simulation.grossAmountOut - simulation.amountOut,
      amountOut: simulation.amountOut,
    };
  return {
    grossAmountOut: selected.grossAmountOut,
    serviceFee: selected.serviceFee,
    builderFee: selected.builderFee,
    amountOut: selected.amountOut,
  };
}

/**
 * Whom a third-party transaction run through the executor should pay: without a builder fee nothing needs
 * the output in the executor's custody, so the request's recipient directly (Executor.sol,
 * `swapThroughAggregator`: one transfer and one balance write less); with one, or when the recipient or the
 * fee is not known yet, the executor, which takes the fee and pays the rest on. `builderBps` is the fee the
 * quote is built on (read or guessed); a wrong guess starts the quote again on the fees read.
 */
export function aggregatorPayee(
  request: QuoteRequest,
  executor: Address,
  builderBps: number | undefined,
): Address {
  const recipient = request.execution?.recipient;
  if (!recipient) return executor;
  const fee = request.builder ? (request.builder.feeBps ?? builderBps) : 0;
  return fee === 0 ? recipient : executor;
}
