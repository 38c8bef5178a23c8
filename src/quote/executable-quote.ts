import { type Address, isAddressEqual, type PublicClient, zeroHash } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import type { Contracts } from "../config/deployment.ts";
import { buildExecutorAggregatorSwap } from "../routing/aggregator-calldata.ts";
import { buildExecutorSwap, type UnsignedSwapTransaction } from "../routing/executor-calldata.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { decodeExecutorOutput, simulateTransaction } from "../simulation/simulate-transaction.ts";
import { type CalldataTerms, sameTerms } from "./execution-terms.ts";
import type { QuoteResult } from "./quote-types.ts";
import { settledFigures } from "./through-executor.ts";

/** What a surface asks the selected route to be built with (recipient, minimum, deadline, attribution). */
export type ExecutableTerms = CalldataTerms;

/**
 * Why a built transaction is not handed out (closed list): `no-executor-route` the selected candidate is not
 * one the executor runs; `unsupported-token-layout` the input's balance and allowance cannot be set exactly
 * for the run; `rpc-unavailable` the node did not answer; `reverted` the transaction reverts at the quote
 * block (`insufficient-output`: below its own `minOut`); `output-mismatch` it ran but the recipient did not
 * receive exactly the quoted output less the fees.
 */
export type ExecutableFailureReason =
  | "no-executor-route"
  | "unsupported-token-layout"
  | "rpc-unavailable"
  | "reverted"
  | "insufficient-output"
  | "output-mismatch";

export type ExecutableQuote =
  | {
      ok: true;
      tx: UnsignedSwapTransaction;
      /** What the recipient received in the run: exactly {@link expectedDelivery}. */
      delivered: bigint;
      /** The transaction's gas at the quote block, measured in the simulating call (measure-call.ts). */
      gas: bigint;
    }
  | {
      ok: false;
      reason: ExecutableFailureReason;
      /** The executor's custom error, when the transaction reverted with one. */
      error?: string;
      /** The transaction that was run, when one could be built (never handed to a client by the partner API). */
      tx?: UnsignedSwapTransaction;
    };

export type ExecutableQuoteDeps = {
  client: Pick<PublicClient, "call">;
  contracts: Pick<Contracts, "executor">;
  fixtures: ReturnType<typeof createFixtures>;
};

/**
 * The executable-quote step shared by the builder and partner quotes (docs/rules.md, partner quote rule 2;
 * builder quote rule 2): the exact executor transaction for these terms (recipient, minimum, deadline,
 * attribution, the quote's fee terms), run through the executor at the quote block from the synthetic payer
 * with exact balance and allowance fixtures, as every candidate was (docs/rules.md, comparison rules 3 and
 * 14). It is returned only if the recipient received exactly the quoted output less the fees; anything
 * else is a failure with a closed reason. Nothing is retried.
 *
 * When the comparison built its candidates with these terms (`QuoteRequest.execution`), the selected
 * candidate's calldata is that transaction and its run in the comparison is the proof: nothing is encoded
 * or run again. Otherwise (no terms given, or a minimum that depends on what a third-party candidate's run
 * delivered, other than its quote) the transaction is built and run here.
 */
export async function buildExecutableQuote(
  deps: ExecutableQuoteDeps,
  result: QuoteResult,
  terms: ExecutableTerms,
): Promise<ExecutableQuote> {
  const proven = provenInComparison(result, terms);
  if (proven) return proven;
  const tx = buildTransaction(deps.contracts.executor, result, terms);
  if (!tx) return { ok: false, reason: "no-executor-route" };
  const run = await runAtQuoteBlock(deps, result, tx);
  if (!run.ok) return { ...run, tx };
  if (run.delivered !== expectedDelivery(result)) return { ok: false, reason: "output-mismatch", tx };
  return { ok: true, tx, delivered: run.delivered, gas: run.gas };
}

/**
 * The selected candidate as the transaction, when it was built with exactly these terms: its run at the
 * quote block (calldata, fixture, block and gas price those of the transaction) decides, as a run here
 * would. Undefined when its calldata is not the transaction asked for.
 */
function provenInComparison(result: QuoteResult, terms: ExecutableTerms): ExecutableQuote | undefined {
  const { selected } = result;
  if (!selected.terms || !sameTerms(selected.terms, terms)) return undefined;
  if (!selected.executorRoute && !selected.aggregatorCall) return undefined;
  const tx = { ...selected.tx, chainId: CHAIN_ID };
  const simulation = selected.simulation;
  if (simulation.status === "unverified") return { ok: false, reason: simulation.reason, tx };
  if (simulation.status !== "simulated")
    return {
      ok: false,
      reason: simulation.reason === "insufficient-output" ? "insufficient-output" : "reverted",
      tx,
    };
  if (simulation.amountOut !== expectedDelivery(result)) return { ok: false, reason: "output-mismatch", tx };
  return { ok: true, tx, delivered: simulation.amountOut, gas: simulation.gas };
}

/**
 * What the recipient must receive: the selected route's gross output less the fees the executor charges.
 * A builder the registry does not know is never paid (docs/rules.md, fee rule 4), so a local-preview
 * builder fee stays with the recipient.
 */
export function expectedDelivery(result: QuoteResult): bigint {
  const { selected, fees } = result;
  // A third-party candidate ran through the executor with these fee terms: what it delivered is the quote.
  if (selected.aggregatorCall) return settledFigures(selected).amountOut;
  const builderPaid = fees.builder === null || fees.builder.registered;
  return selected.grossAmountOut - selected.serviceFee - (builderPaid ? selected.builderFee : 0n);
}

function buildTransaction(
  executor: Address,
  result: QuoteResult,
  terms: ExecutableTerms,
): UnsignedSwapTransaction | undefined {
  const { request, selected, fees } = result;
  const swap = {
    executor,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn,
    minOut: terms.minOut,
    recipient: terms.recipient,
    deadline: terms.deadline,
    maxRouteFeeBps: fees.serviceFeeBps,
    pairFee: fees.pairFee,
    maxBuilderFeeBps: fees.builderBps,
    builderId: request.builder?.id ?? zeroHash,
    ...(terms.attribution ?? {}),
  };
  // A third-party winner is forwarded by the executor, with no service fee (docs/rules.md, fee rule 2); its
  // calldata pays the executor or one recipient, which another recipient's transaction cannot change.
  if (selected.aggregatorCall) {
    const { entry, data, pays } = selected.aggregatorCall;
    if (!isAddressEqual(pays, executor) && !isAddressEqual(pays, terms.recipient)) return undefined;
    return buildExecutorAggregatorSwap({ ...swap, maxRouteFeeBps: 0, pairFee: false, entry, data });
  }
  if (!selected.executorRoute) return undefined;
  return buildExecutorSwap({ ...swap, route: selected.executorRoute });
}

type Run =
  | { ok: true; delivered: bigint; gas: bigint }
  | {
      ok: false;
      reason: Exclude<ExecutableFailureReason, "no-executor-route" | "output-mismatch">;
      error?: string;
    };

/** One simulating request at the quote block on exact fixtures (gas measured in it), read back beside the run. */
async function runAtQuoteBlock(
  deps: ExecutableQuoteDeps,
  result: QuoteResult,
  tx: UnsignedSwapTransaction,
): Promise<Run> {
  const { request, block, gasPrice } = result;
  const fixture = await deps
    .fixtures({
      tokenIn: request.tokenIn,
      amountIn: request.amountIn,
      spender: tx.to,
      blockNumber: block.number,
    })
    .catch(() => ({ status: "unsupported" as const, reason: "rpc" as const }));
  if (fixture.status !== "ready")
    return { ok: false, reason: fixture.reason === "rpc" ? "rpc-unavailable" : "unsupported-token-layout" };
  const [validation, simulation] = await Promise.all([
    fixture.validation.catch(() => "rpc" as const),
    simulateTransaction(deps.client, {
      tx,
      from: fixture.caller,
      stateOverride: fixture.stateOverride,
      blockNumber: block.number,
      blockTimestamp: block.timestamp,
      gasPrice,
      decodeOutput: decodeExecutorOutput,
    }),
  ]);
  // A run on a fixture that did not read back exactly proves nothing (docs/rules.md, comparison rule 14).
  if (validation !== "exact")
    return { ok: false, reason: validation === "rpc" ? "rpc-unavailable" : "unsupported-token-layout" };
  if (simulation.status === "unverified") return { ok: false, reason: simulation.reason };
  if (simulation.status === "failed")
    return { ok: false, reason: simulation.reason, ...(simulation.error ? { error: simulation.error } : {}) };
  return { ok: true, delivered: simulation.amountOut, gas: simulation.gas };
}
