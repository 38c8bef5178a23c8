import { type Address, zeroAddress } from "viem";
import type { TransferFeeMeter, TransferFeeQuery } from "../simulation/transfer-fee.ts";
import { type Assessment, QuoteError, type QuoteRequest } from "./quote-types.ts";

/** A token the quote moves that takes a fee on every transfer, as simulated at the quote block. */
export type TaxedToken = { token: Address; bps: number };

/** A candidate that failed because a token it moves takes a fee on transfer (docs/rules.md, comparison rule 4a). */
export type TransferFeeFailure = {
  status: "failed";
  reason: "token-transfer-fee";
  stage: "simulation";
  error?: string;
  transferFee: TaxedToken;
};

export type Explained = {
  assessments: Assessment[];
  /** The taxed tokens found, input first; empty when no failure was explained by a fee. */
  taxed: TaxedToken[];
  /** One sentence per taxed token, for the quote's warnings and a NO_EXECUTABLE_ROUTE message. */
  warnings: string[];
};

/** Below this many base units a 1 bps fee rounds to nothing; every token is measured with at least this. */
const MIN_PROBE_AMOUNT = 10_000n;

/**
 * Says why candidates failed when a token they move takes a fee on transfer (docs/rules.md, comparison
 * rule 4a): only when some candidate reverted in simulation, the input, the output and every token on the
 * failed routes are sent once each by a simulated transfer at the quote block (transfer-fee.ts, one
 * `eth_call`), each with the largest amount the failed candidates move of it. A failed candidate that moves
 * a taxed token keeps its status (it reverted, and is never promoted) with reason `token-transfer-fee` and
 * the token and fee; the quote warns once per taxed token. Quotes without failures cost nothing more.
 */
export async function explainTransferFees(
  measure: TransferFeeMeter,
  request: QuoteRequest,
  blockNumber: bigint,
  assessments: Assessment[],
): Promise<Explained> {
  const failed = assessments.filter(
    (a) => a.simulation.status === "failed" && a.simulation.stage === "simulation",
  );
  if (failed.length === 0) return { assessments, taxed: [], warnings: [] };
  const queries = probeQueries(request, failed);
  const fees = await measure(queries, blockNumber);
  const taxed = queries.flatMap((q, i) => {
    const fee = fees[i]!;
    return fee.status === "measured" && fee.bps > 0 ? [{ token: q.token, bps: fee.bps }] : [];
  });
  if (taxed.length === 0) return { assessments, taxed, warnings: [] };
  const explained = assessments.map((assessment) => {
    const { simulation } = assessment;
    if (simulation.status !== "failed" || simulation.stage !== "simulation") return assessment;
    const moved = new Set(tokensMoved(request, assessment));
    const cause = taxed.find((t) => moved.has(t.token));
    if (!cause) return assessment;
    const failure: TransferFeeFailure = {
      status: "failed",
      reason: "token-transfer-fee",
      stage: "simulation",
      ...("error" in simulation && simulation.error ? { error: simulation.error } : {}),
      transferFee: cause,
    };
    return { ...assessment, simulation: failure };
  });
  return {
    assessments: explained,
    taxed,
    warnings: taxed.map((t) => warningFor(t, request, blockNumber)),
  };
}

/**
 * NO_EXECUTABLE_ROUTE when every candidate reverted; with reason `token-transfer-fee` and the taxed tokens
 * named when a fee on transfer explains the failures.
 */
export function noExecutableRoute(feeWarnings: readonly string[]): QuoteError {
  const message = "every candidate reverted when simulated at the quote block";
  if (feeWarnings.length === 0) return new QuoteError("NO_EXECUTABLE_ROUTE", message);
  return new QuoteError("NO_EXECUTABLE_ROUTE", `${message}: ${feeWarnings.join("; ")}`, {
    reason: "token-transfer-fee",
  });
}

/** Every token a candidate moves, lowercase, native ETH left out (it cannot take a fee). */
function tokensMoved(request: QuoteRequest, assessment: Assessment): Address[] {
  const tokens = [
    request.tokenIn,
    request.tokenOut,
    ...assessment.branches.flatMap((b) => b.hops.flatMap((h) => [h.tokenIn, h.tokenOut])),
  ];
  return tokens.map((t) => t.toLowerCase() as Address).filter((t) => t !== zeroAddress);
}

/** One query per token the failed candidates move, with the largest amount any of them moves of it. */
function probeQueries(request: QuoteRequest, failed: readonly Assessment[]): TransferFeeQuery[] {
  const amounts = new Map<Address, bigint>();
  const see = (token: Address, amount: bigint) => {
    const key = token.toLowerCase() as Address;
    if (key === zeroAddress) return;
    const known = amounts.get(key) ?? MIN_PROBE_AMOUNT;
    amounts.set(key, amount > known ? amount : known);
  };
  see(request.tokenIn, request.amountIn);
  for (const candidate of failed) {
    see(request.tokenOut, candidate.grossAmountOut);
    for (const hop of candidate.branches.flatMap((b) => b.hops)) {
      see(hop.tokenIn, hop.amountIn);
      see(hop.tokenOut, hop.amountOut);
    }
  }
  return [...amounts].map(([token, amount]) => ({ token, amount }));
}

function warningFor(taxed: TaxedToken, request: QuoteRequest, blockNumber: bigint): string {
  const what = `${taxed.token} takes a ${taxed.bps} bps fee on transfer (simulated at block ${blockNumber})`;
  if (taxed.token === request.tokenIn.toLowerCase())
    return `${what}: the executor refuses an input that arrives short, so routes selling it fail`;
  return `${what}: it arrives short of what the pools quote, so routes ${taxed.token === request.tokenOut.toLowerCase() ? "to" : "through"} it fail their minimum`;
}
