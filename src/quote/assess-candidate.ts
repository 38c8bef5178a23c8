import type { Address, PublicClient } from "viem";
import type { createFixtures } from "../simulation/fixtures.ts";
import { simulateProviderTransaction } from "../simulation/simulate-provider-transaction.ts";
import {
  decodeExecutorOutput,
  type Simulation,
  simulateTransaction,
} from "../simulation/simulate-transaction.ts";
import type { Assessment, Candidate, QuoteRequest } from "./quote-types.ts";

export type AssessDeps = {
  client: PublicClient;
  fixtures: ReturnType<typeof createFixtures>;
  /** The settlement collector: where the builder fee of a candidate run through the executor stays. */
  collector: Address;
};

/** The block and pricing every candidate of one quote is assessed under. */
export type AssessmentTerms = {
  block: { number: bigint; timestamp: bigint };
  /** The one gas price shared by every candidate (docs/rules.md, comparison rule 12). */
  gasPrice: bigint;
  gasToOut: ((gas: number | bigint) => bigint) | undefined;
};

/**
 * Stage 4 of the comparison, per candidate: the balance and allowance fixture for its spender, then its
 * complete calldata run at the block (docs/rules.md, comparison rules 3, 4 and 14). A third-party transaction
 * that does not bind what was asked is refused unrun, a firm quote past its deadline is `expired`, and a
 * third-party output is measured by balance change.
 */
export async function assessCandidate(
  deps: AssessDeps,
  request: QuoteRequest,
  candidate: Candidate,
  { block, gasPrice, gasToOut }: AssessmentTerms,
): Promise<Assessment> {
  if (candidate.bindingMismatch)
    return {
      ...candidate,
      simulation: { status: "failed", reason: "provider-binding-mismatch", stage: "validation" },
      gasCostOut: null,
    };
  // A firm quote can be executed only in a block after the quote block (where its run is simulated), so
  // one expiring at the quote block's time has expired.
  if (candidate.expiresAt !== undefined && candidate.expiresAt <= block.timestamp)
    return {
      ...candidate,
      simulation: { status: "expired", reason: "expired", stage: "validation" },
      gasCostOut: null,
    };
  const fixture = await deps
    .fixtures({
      tokenIn: request.tokenIn,
      amountIn: request.amountIn,
      spender: candidate.spender,
      blockNumber: block.number,
    })
    .catch(() => ({ status: "unsupported" as const, reason: "rpc" as const }));
  if (fixture.status !== "ready") {
    const reason = fixture.reason === "rpc" ? "rpc-unavailable" : "unsupported-token-layout";
    return {
      ...candidate,
      simulation: { status: "unverified", reason, stage: "fixture" },
      gasCostOut: null,
    };
  }
  const [validation, simulated] = await Promise.all([
    fixture.validation.catch(() => "rpc" as const),
    candidate.provider !== "service" && !candidate.aggregatorCall
      ? simulateProviderTransaction(deps.client, {
          tx: candidate.tx,
          caller: fixture.caller,
          stateOverride: fixture.stateOverride,
          tokenOut: request.tokenOut,
          promised: candidate.amountOut,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          gasPrice,
        })
      : simulateTransaction(deps.client, {
          tx: candidate.tx,
          from: fixture.caller,
          stateOverride: fixture.stateOverride,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          gasPrice,
          decodeOutput: decodeExecutorOutput,
          // A third-party candidate run through the executor: its output before the builder fee is measured.
          ...(candidate.aggregatorCall ? { feesAt: { token: request.tokenOut, of: deps.collector } } : {}),
        }),
  ]);
  // A simulation on a fixture that did not read back exactly proves nothing (docs/rules.md, comparison rule 14).
  const simulation: Simulation =
    validation === "exact"
      ? shortOfQuote(candidate, simulated)
      : {
          status: "unverified",
          reason: validation === "rpc" ? "rpc-unavailable" : "unsupported-token-layout",
          stage: "fixture",
        };
  const gasCostOut = simulation.status === "simulated" && gasToOut ? gasToOut(simulation.gas) : null;
  return { ...candidate, simulation, gasCostOut };
}

/**
 * An executor candidate whose run delivered less than it quoted fails as the executor's own minimum would
 * have made it (`InsufficientOutput`): its calldata may carry a client's lower minimum (execution-terms.ts),
 * which lets the transaction through, never the candidate (docs/rules.md, comparison rule 4).
 */
function shortOfQuote(candidate: Candidate, simulated: Simulation): Simulation {
  if (!candidate.terms || simulated.status !== "simulated" || simulated.amountOut >= candidate.amountOut)
    return simulated;
  return {
    status: "failed",
    reason: "insufficient-output",
    stage: "simulation",
    error: "InsufficientOutput",
    delivered: simulated.amountOut,
  };
}
