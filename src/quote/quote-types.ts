import type { Address, Hex } from "viem";
import type { RpcCount } from "../chain/rpc-tally.ts";
import { JunctionError, type JunctionErrorOptions } from "../errors/junction-error.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { QuoteSource } from "../providers/quote-sources.ts";
import type { AggregatorEntry } from "../routing/aggregator-calldata.ts";
import type { ExecutorRoute } from "../routing/route-encoding.ts";
import type { Simulation } from "../simulation/simulate-transaction.ts";
import type { CalldataTerms, ExecutionRequest } from "./execution-terms.ts";
import type { TransferFeeFailure } from "./transfer-fee-explanation.ts";

export type QuoteRequest = {
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  /** Restricts the comparison to one source; execution checks stay on (docs/rules.md, comparison rule 8). */
  provider?: QuoteSource;
  /**
   * Builder quotes: the builder the trade is attributed to (`builderIdOf(code)`) and the builder fee asked
   * for (default: the builder's registered default). Fees then come from the registry at the quote block.
   */
  builder?: { id: Hex; feeBps?: number };
  /**
   * Builder and partner quotes: third-party candidates are taken with the executor as taker and recipient
   * and run through it (`Executor.swapThroughAggregator`), so whichever source wins is executed, charged
   * and settled like Junction's own routes (docs/rules.md, fee rule 2: no service fee on them). The public
   * comparison leaves it out and assesses each provider's transaction as the provider built it.
   */
  throughExecutor?: true;
  /**
   * Builder quotes, and partner quotes with a recipient: the recipient, minimum, deadline (and attribution)
   * every executor candidate is built with, so the selected candidate's run is the proof of the transaction
   * handed out (execution-terms.ts). Without them a candidate pays the synthetic caller, its minimum is its
   * own quote and its deadline SIMULATION_DEADLINE_S after the quote block.
   */
  execution?: ExecutionRequest;
};

/** What the registry says the builder is at the quote block (builder quotes only). */
export type BuilderStanding =
  | { registered: false }
  | { registered: true; enabled: boolean; defaultFeeBps: number; maxFeeBps: number };

/**
 * The fees a quote was priced with: exactly what the executor will charge, read from the registry's
 * `feePolicy` at the quote block (no fee at all while the registry is uncommissioned; a suspended or unknown
 * builder is never paid).
 */
export type FeeTerms = {
  /** The service fee in bps (docs/glossary.md). */
  serviceFeeBps: number;
  builderBps: number;
  /** Zero address when no builder is paid. */
  builderRecipient: Address;
  policyVersion: number;
  /** The service fee is the pair's own (`FeePolicy.pairFee`): the swap's calldata says so, to save a read. */
  pairFee: boolean;
  /** Null on public quotes. */
  builder: BuilderStanding | null;
};

export type QuotedHop = {
  pool: IndexedPool;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  amountOut: bigint;
};

/** A candidate entering final assessment: built, with complete calldata, but never returned with it. */
export type Candidate = {
  id: string;
  provider: QuoteSource;
  /** Third-party candidates: the provider's variant (e.g. `direct`, `firm`). */
  variant?: string;
  /** The candidate's original quote, to the recipient (after the service and builder fees on direct-pool routes). */
  amountOut: bigint;
  /** Output before fees. */
  grossAmountOut: bigint;
  /**
   * Service fee bps and amount; zero on aggregator quotes (their fees are in the price,
   * docs/rules.md, fee rule 2).
   */
  serviceFeeBps: number;
  serviceFee: bigint;
  builderFee: bigint;
  description: string;
  /** Direct-pool candidates only: the branches that produced the quote. */
  branches: { amountIn: bigint; amountOut: bigint; hops: QuotedHop[] }[];
  /**
   * Direct-pool candidates: the route's price impact in bps against its marginal price at the quote block
   * (routing/price-impact.ts); absent for third-party candidates, whose pools are not known.
   */
  priceImpactBps?: number;
  /**
   * Direct-pool candidates: the route encoded as the executor runs it (the same branches), to rebuild the
   * calldata for a real recipient.
   */
  executorRoute?: ExecutorRoute;
  /**
   * Third-party candidates run through the executor (`QuoteRequest.throughExecutor`): the provider's own
   * calldata (built with the executor as taker), the executor entry that forwards it, and whom that calldata
   * pays (the executor, or without a builder fee the swap's recipient directly), to rebuild the executor
   * call for the same recipient.
   */
  aggregatorCall?: { entry: AggregatorEntry; data: Hex; pays: Address };
  /** Executor candidates (direct-pool routes, and third-party ones run through the executor): the terms `tx` carries. */
  terms?: CalldataTerms;
  tx: { to: Address; data: Hex; value: bigint };
  spender: Address;
  /** Third-party candidates whose transaction pays someone other than its taker: that recipient. */
  providerRecipient?: Address;
  /** Third-party candidates: refused before simulation (binding mismatch), or the firm quote's expiry. */
  bindingMismatch?: true;
  expiresAt?: bigint;
};

/**
 * Third-party candidates refused before simulation: a transaction that does not bind what was asked
 * (docs/rules.md, comparison rule 2), or a firm quote already past its deadline at the quote block. Listed,
 * never selectable.
 */
export type ProviderRejection =
  | { status: "failed"; reason: "provider-binding-mismatch"; stage: "validation" }
  | { status: "expired"; reason: "expired"; stage: "validation" };

export type Assessment = Candidate & {
  simulation: Simulation | ProviderRejection | TransferFeeFailure;
  /** gas × gasPrice in output units, when simulated and a conversion exists. */
  gasCostOut: bigint | null;
};

export type QuoteResult = {
  request: QuoteRequest;
  block: { number: bigint; hash: Hex; timestamp: bigint };
  gasPrice: bigint;
  fees: FeeTerms;
  selected: Assessment;
  comparison: Assessment[];
  /**
   * What the search looked at: pools loaded, executable paths, and the fallback probe if it ran
   * (docs/rules.md, comparison rule 11).
   */
  search: {
    pools: number;
    paths: number;
    fallbackProbe: { keys: number; found: number } | null;
    /** Concentrated pools loaded past the first tick window (large trades). */
    widenedPools: number;
  };
  /** Where the time went, per stage (for Server-Timing and metrics; never part of the quote's terms). */
  timings: StageTimings;
  /** What the comparison asked of the node (Server-Timing and metrics; never part of the quote's terms). */
  rpc: RpcCount;
  warnings: string[];
};

/**
 * Milliseconds per pipeline stage: pinning the block, reading pool state (widening included), Junction's own
 * search, waiting on the third-party providers (in parallel with state and search), simulating every
 * candidate, and ranking (with the reorg check).
 */
export type StageTimings = Record<"pin" | "state" | "search" | "providers" | "simulate" | "rank", number>;

/** Why a quote could not be produced (the API maps each code to its status in one table). */
export class QuoteError extends JunctionError {
  override name = "QuoteError";
  constructor(
    code:
      | "UNKNOWN_TOKEN"
      | "NO_ROUTE"
      | "NO_EXECUTABLE_ROUTE"
      | "PROVIDER_DISABLED"
      | "BLOCK_REORGED"
      | "BUILDER_FEE_ABOVE_CAP",
    message: string,
    options: JunctionErrorOptions = {},
  ) {
    super(code, message, options);
  }
}
