import type { Address, Hex } from "viem";

/**
 * What a builder or partner quote asks its transaction to carry, given to the comparison itself
 * (`QuoteRequest.execution`) so every executor candidate is built with it: the selected candidate's run at
 * the quote block is then the run of the very transaction handed out, and nothing is encoded or simulated a
 * second time (docs/architecture.md, "The quote pipeline").
 */
export type ExecutionRequest = {
  recipient: Address;
  /** An explicit minimum after fees, or slippage in bps below the output (rounded down). */
  minimum: { minOut: bigint } | { slippageBps: number };
  /**
   * Unix seconds: `at` exactly, or `seconds` after the later of `from` (the wall clock when asked) and the
   * quote block's time (a devnet's clock may run ahead of the wall clock).
   */
  deadline: { at: bigint } | { from: bigint; seconds: bigint };
  /** Builder quotes: the attribution carried into the collector's settlement event. */
  attribution?: { quoteId: Hex; keyIdHash: Hex };
};

/** The terms one executor transaction carries besides the route and the fee caps. */
export type CalldataTerms = {
  recipient: Address;
  /** The transaction reverts unless the recipient receives at least this much after fees. */
  minOut: bigint;
  /** Unix seconds; the transaction reverts after it. */
  deadline: bigint;
  attribution?: { quoteId: Hex; keyIdHash: Hex };
};

/** `out` less `slippageBps`, rounded down: the minimum a slippage allows. */
export function minOutBelow(out: bigint, slippageBps: number): bigint {
  return (out * BigInt(10_000 - slippageBps)) / 10_000n;
}

/** The minimum asked for a transaction delivering `out`: the explicit one, or the slippage below `out`. */
export function minimumFor(minimum: ExecutionRequest["minimum"], out: bigint): bigint {
  return "minOut" in minimum ? minimum.minOut : minOutBelow(out, minimum.slippageBps);
}

/**
 * The transaction's deadline at a quote block of time `blockTimestamp`; a firm quote is honoured until its
 * own expiry, so the transaction does not outlive it (it would revert in the aggregator's settler, later
 * and less clearly, as the executor's DeadlineExpired says it here).
 */
export function executionDeadline(
  deadline: ExecutionRequest["deadline"],
  blockTimestamp: bigint,
  expiresAt: bigint | undefined,
): bigint {
  const asked =
    "at" in deadline
      ? deadline.at
      : (deadline.from > blockTimestamp ? deadline.from : blockTimestamp) + deadline.seconds;
  return expiresAt !== undefined && expiresAt < asked ? expiresAt : asked;
}

/**
 * The terms a candidate quoting `quoted` (to the recipient, after fees) is built with. Its minimum is the
 * one the surface will ask for when the run delivers the quote, which it must (assess-candidate.ts): then
 * the calldata simulated is the calldata handed out. An explicit minimum above the quote stays the quote,
 * so the candidate is compared as it is and the surface, not the run, refuses the terms.
 */
export function candidateTerms(
  execution: ExecutionRequest,
  quoted: bigint,
  block: { timestamp: bigint },
  expiresAt: bigint | undefined,
): CalldataTerms {
  const asked = minimumFor(execution.minimum, quoted);
  return {
    recipient: execution.recipient,
    minOut: asked > quoted ? quoted : asked,
    deadline: executionDeadline(execution.deadline, block.timestamp, expiresAt),
    ...(execution.attribution ? { attribution: execution.attribution } : {}),
  };
}

/** Whether two sets of terms build the same transaction. */
export function sameTerms(a: CalldataTerms, b: CalldataTerms): boolean {
  return (
    a.recipient.toLowerCase() === b.recipient.toLowerCase() &&
    a.minOut === b.minOut &&
    a.deadline === b.deadline &&
    a.attribution?.quoteId === b.attribution?.quoteId &&
    a.attribution?.keyIdHash === b.attribution?.keyIdHash
  );
}
