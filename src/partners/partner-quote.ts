import { type Address, type Hex, maxUint256, type PublicClient } from "viem";
import type { Contracts } from "../config/deployment.ts";
import { type ErrorIssue, InvalidRequestError, JunctionError } from "../errors/junction-error.ts";
import type { QuoteSource } from "../providers/quote-sources.ts";
import type { createAdmission } from "../quote/admission.ts";
import {
  buildExecutableQuote,
  type ExecutableFailureReason,
  expectedDelivery,
} from "../quote/executable-quote.ts";
import { type ExecutionRequest, executionDeadline, minimumFor } from "../quote/execution-terms.ts";
import type { QuoteRequest, QuoteResult } from "../quote/quote-types.ts";
import { settledFigures } from "../quote/through-executor.ts";
import { recipientIssue, type UnsignedSwapTransaction } from "../routing/executor-calldata.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { PARTNER_LIMITS } from "./limits.ts";
import { type PartnerSwapHop, swapHops } from "./swap-hops.ts";

/**
 * Why a partner quote is `ok: false` (docs/rules.md, errors: partner), a closed list:
 * - `unknown-token`: `in` or `out` has no contract code;
 * - `no-route`: no verified pool path connects the pair for this amount;
 * - `no-executable-route`: every candidate reverted or delivered less than it quoted when run at the quote
 *   block (with a recipient, each ran as the transaction for it, its minimum and deadline);
 * - `token-transfer-fee`: the same, and a token the trade moves takes a fee on transfer (simulated at the
 *   quote block), which explains it;
 * - `unsupported-token`: the input's balance cannot be set exactly for a run (a rebasing token), so nothing
 *   could be proven;
 * - `gas-exceeds-output`: the swap's gas costs more than it delivers (`gasCostOut` > `amountOut`, dust
 *   amounts): `netOut` would be negative, so no swap is offered; the other figures are included;
 * - `min-out-above-net-out`: the `minOut` asked for exceeds `swap.netOut`;
 * - `simulation-failed`: the transaction for this recipient, minimum and deadline reverted at the quote block
 *   when it had to be built again (a third-party run delivered other than its quote, moving the slippage
 *   minimum);
 * - `output-mismatch`: it ran, but the recipient did not receive exactly `swap.netOut`;
 * - `block-reorged`: the quote block was reorged while it was assessed;
 * - `upstream-unavailable`: the chain node did not answer;
 * - `timeout`: the quote passed its 25-second deadline.
 */
export const PARTNER_QUOTE_ERRORS = [
  "unknown-token",
  "no-route",
  "no-executable-route",
  "token-transfer-fee",
  "unsupported-token",
  "gas-exceeds-output",
  "min-out-above-net-out",
  "simulation-failed",
  "output-mismatch",
  "block-reorged",
  "upstream-unavailable",
  "timeout",
] as const;

export type PartnerQuoteError = (typeof PARTNER_QUOTE_ERRORS)[number];

export type PartnerQuoteRequest = {
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  /** The transaction terms (a key with swap permission): with them the quote carries `tx` and `swap`. */
  swap?: { recipient: Address; slippageBps?: number; minOut?: bigint; deadline?: number };
};

/** The quote part: the selected route, exact at `block`. */
export type PartnerQuoteFigures = {
  block: { number: bigint; hash: Hex };
  /** Who the selected route is from: Junction's own pools (`service`) or a third-party aggregator. */
  source: QuoteSource;
  /** The gross output, before the service fee (the wire's `amountOut`). */
  grossOut: bigint;
  gas: bigint;
  gasCostOut: bigint;
  /**
   * grossOut − gasCostOut (the wire's top-level `netOut`): a ranking figure that ignores the service fee;
   * never negative (see gas-exceeds-output). Not the recipient's output, which is `swap.netOut`.
   */
  grossLessGas: bigint;
  /** The route's price impact in bps at the block (docs/rules.md, price impact rule 3). */
  priceImpactBps: number | null;
  swaps: PartnerSwapHop[];
};

export type PartnerSwap = {
  amountOut: bigint;
  fee: bigint;
  feeBps: number;
  /** What the recipient receives: amountOut − fee, exactly, as run at the quote block. */
  netOut: bigint;
  minOut: bigint;
  deadline: number;
  recipient: Address;
  executorGas: bigint;
  spender: Address;
};

/** The partner quote resource (docs/rules.md, partner quote rules 1, 6-8) in domain types. */
export type PartnerQuote = { tokenIn: Address; tokenOut: Address; amountIn: bigint } & (
  | ({ ok: true } & PartnerQuoteFigures & { swap?: PartnerSwap; tx?: UnsignedSwapTransaction })
  /** Quote figures are present when a route was found and only building it for the terms failed. */
  | ({ ok: false; error: PartnerQuoteError } & Partial<PartnerQuoteFigures>)
);

export type PartnerQuoteDeps = {
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  /** The partner API's own per-process capacity (429 BUSY when refused). */
  admission: ReturnType<typeof createAdmission>;
  client: Pick<PublicClient, "call">;
  contracts: Pick<Contracts, "executor" | "weth9">;
  fixtures: ReturnType<typeof createFixtures>;
  /** Unix milliseconds. */
  now: () => number;
};

/**
 * `GET {partner_url}/quote` (docs/rules.md, partner quote rules 1-8): the terms checked (400 when they are
 * not a request at all), then, under the partner admission, the shared comparison (with a recipient, every
 * candidate built as the transaction for it, its minimum and deadline) and the executable-quote step, which
 * hands a transaction out only after it ran through the executor at the quote block and delivered exactly
 * `swap.netOut`: the winner's run in the comparison, when its calldata is that transaction. Failing to build a found route is `ok: false` with an
 * error from {@link PARTNER_QUOTE_ERRORS}; what the comparison throws (no route, timeout, capacity, bad
 * input) is thrown, and the partner surface words it (src/api/routes/partner/quote-failure.ts).
 */
export async function quotePartner(
  deps: PartnerQuoteDeps,
  request: PartnerQuoteRequest,
  options: {
    /** The partner key: identical concurrent requests of one key share one search. */
    caller: string;
    /** Runs once admitted, before the search (spends the key's rate limit: a BUSY request spends nothing). */
    admitted: () => Promise<void>;
  },
): Promise<PartnerQuote> {
  checkTerms(request, deps);
  const terms = JSON.stringify(request, (_, v) => (typeof v === "bigint" ? v.toString() : v));
  return deps.admission.run(`partner:${options.caller}:${terms}`, async (signal) => {
    await options.admitted();
    return quoteAndBuild(deps, request, signal);
  });
}

/**
 * 400 for terms no quote could serve: identical tokens, a recipient or deadline out of bounds (the amount's
 * range, AMOUNT_IN, is the query schema's: src/api/schemas/common-patterns.ts).
 */
function checkTerms(request: PartnerQuoteRequest, deps: Pick<PartnerQuoteDeps, "now" | "contracts">): void {
  if (request.tokenIn === request.tokenOut)
    throw new JunctionError("IDENTICAL_TOKENS", "in and out must differ");
  const issues: ErrorIssue[] = [];
  const swap = request.swap;
  if (swap) {
    const recipient = recipientIssue(swap.recipient, deps.contracts.executor);
    if (recipient) issues.push({ path: "recipient", message: recipient });
    if (swap.minOut !== undefined && swap.minOut > maxUint256)
      issues.push({ path: "minOut", message: "must be at most 2^256 - 1" });
    const now = Math.floor(deps.now() / 1000);
    const { max } = PARTNER_LIMITS.deadlineSeconds;
    if (swap.deadline !== undefined && (swap.deadline < now || swap.deadline > now + max))
      issues.push({ path: "deadline", message: `must lie between now (${now}) and now + ${max} s` });
  }
  if (issues.length) throw new InvalidRequestError(issues);
}

async function quoteAndBuild(
  deps: PartnerQuoteDeps,
  request: PartnerQuoteRequest,
  signal: AbortSignal,
): Promise<PartnerQuote> {
  const asked = { tokenIn: request.tokenIn, tokenOut: request.tokenOut, amountIn: request.amountIn };
  const execution = request.swap && executionOf(request.swap, deps.now());
  // Every source is compared; third-party ones run through the executor, so whichever wins is the
  // executor transaction handed out (docs/rules.md, partner quote rule 2). With a recipient, every
  // candidate is built for it, its minimum and deadline: the winner's run is the transaction's.
  const result = await deps.quote(
    { ...asked, throughExecutor: true, ...(execution ? { execution } : {}) },
    signal,
  );
  const { selected, block } = result;
  const blockRef = { number: block.number, hash: block.hash };
  // Without a run at the block there is no gas and no proof: nothing is offered (rebasing inputs).
  if (selected.simulation.status !== "simulated")
    return {
      ...asked,
      ok: false,
      error: selected.simulation.reason === "rpc-unavailable" ? "upstream-unavailable" : "unsupported-token",
      block: blockRef,
    };
  const gasCostOut = selected.gasCostOut ?? 0n;
  const settled = settledFigures(selected);
  const measured = {
    block: blockRef,
    source: selected.provider,
    grossOut: settled.grossAmountOut,
    gas: selected.simulation.gas,
    gasCostOut,
    priceImpactBps: selected.priceImpactBps ?? null,
    swaps: swapHops(selected, deps.contracts.weth9),
  };
  if (gasCostOut > settled.grossAmountOut)
    return { ...asked, ok: false, error: "gas-exceeds-output", ...measured };
  const figures: PartnerQuoteFigures = { ...measured, grossLessGas: settled.grossAmountOut - gasCostOut };
  if (!execution) return { ...asked, ok: true, ...figures };

  const netOut = expectedDelivery(result);
  const { recipient } = execution;
  const minOut = minimumFor(execution.minimum, netOut);
  if (minOut > netOut) return { ...asked, ok: false, error: "min-out-above-net-out", ...figures };
  const deadline = Number(executionDeadline(execution.deadline, block.timestamp, selected.expiresAt));
  const executable = await buildExecutableQuote(deps, result, {
    recipient,
    minOut,
    deadline: BigInt(deadline),
  });
  if (!executable.ok) return { ...asked, ok: false, error: buildFailure(executable.reason), ...figures };
  const spender = executable.tx.to.toLowerCase() as Address;
  return {
    ...asked,
    ok: true,
    ...figures,
    tx: { ...executable.tx, to: spender },
    swap: {
      amountOut: settled.grossAmountOut,
      fee: settled.serviceFee,
      feeBps: selected.serviceFeeBps,
      netOut: executable.delivered,
      minOut,
      deadline,
      recipient,
      executorGas: executable.gas,
      spender,
    },
  };
}

/**
 * The transaction's terms as the comparison builds them: `slippageBps` (default 50) below the output
 * unless `minOut` is given, and the deadline asked for or 600 s after the later of now and the quote
 * block's time (a devnet's clock may run ahead).
 */
function executionOf(swap: NonNullable<PartnerQuoteRequest["swap"]>, nowMs: number): ExecutionRequest {
  return {
    recipient: swap.recipient,
    minimum:
      swap.minOut === undefined
        ? { slippageBps: swap.slippageBps ?? PARTNER_LIMITS.slippageBps.default }
        : { minOut: swap.minOut },
    deadline:
      swap.deadline === undefined
        ? { from: BigInt(Math.floor(nowMs / 1000)), seconds: BigInt(PARTNER_LIMITS.deadlineSeconds.default) }
        : { at: BigInt(swap.deadline) },
  };
}

function buildFailure(reason: ExecutableFailureReason): PartnerQuoteError {
  switch (reason) {
    case "unsupported-token-layout":
      return "unsupported-token";
    case "rpc-unavailable":
      return "upstream-unavailable";
    case "output-mismatch":
      return "output-mismatch";
    case "no-executor-route":
    case "reverted":
    case "insufficient-output":
      return "simulation-failed";
  }
}
