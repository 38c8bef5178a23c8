import type { Address, PublicClient } from "viem";
import type { PinnedBlock } from "../chain/pin-block.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { type AssessmentTerms, assessCandidate } from "./assess-candidate.ts";
import { QUOTE_LIMITS } from "./limits.ts";
import {
  type Assessment,
  type Candidate,
  QuoteError,
  type QuoteRequest,
  type StageTimings,
} from "./quote-types.ts";
import { timed } from "./timed.ts";

/** The block every candidate is simulated at, with the gas price and conversion they are ranked by. */
export type AssessAt = AssessmentTerms & { block: PinnedBlock };

/** What assessing candidates needs: the node, the balance fixtures, and the collector third-party runs pay. */
export type CandidateAssessmentDeps = {
  client: PublicClient;
  fixtures: ReturnType<typeof createFixtures>;
  collector: Address;
};

/** Stage 4 of the comparison (docs/rules.md, comparison rules 3, 4 and 14), bound to its dependencies. */
export function createCandidateAssessment(deps: CandidateAssessmentDeps) {
  return { assessOursAndTheirs };

  /**
   * Stage 4: every deduplicated candidate simulated at the quote block, ours and theirs alike. Ours wait up
   * to QUOTE_LIMITS.ownSimulationHoldMs for the providers', so that all travel in one round trip; past it,
   * ours are simulated at once and theirs when they arrive, each batch with its own canonical-block check.
   * A node that stopped answering then fails the quote one per-call deadline after the hold, not after the
   * providers' deadline and then that (docs/operating.md, "Observing it": a stalled node).
   */
  async function assessOursAndTheirs(
    request: QuoteRequest,
    own: Candidate[],
    theirs: Promise<Candidate[]>,
    at: AssessAt,
    signal: AbortSignal,
    timings: StageTimings,
  ): Promise<Assessment[]> {
    const arrived =
      own.length === 0 ? await theirs : await settledWithin(theirs, QUOTE_LIMITS.ownSimulationHoldMs);
    signal.throwIfAborted();
    if (arrived) {
      const candidates = dedupe([...own, ...arrived]);
      if (candidates.length === 0) throw noRoute(request);
      return timed(timings, "simulate", () => assessAtBlock(request, candidates, at));
    }
    const [ours, later] = await Promise.all([
      timed(timings, "simulate", () => assessAtBlock(request, own, at)),
      theirs.then((candidates) => {
        signal.throwIfAborted();
        const fresh = dedupe([...own, ...candidates]).slice(own.length);
        return fresh.length === 0 ? [] : timed(timings, "simulate", () => assessAtBlock(request, fresh, at));
      }),
    ]);
    return [...ours, ...later];
  }

  /**
   * The candidates simulated at the quote block in one round trip, with the check that the block is still
   * canonical riding in it: the node answers it as it runs them, so a reorg of the quote block before the
   * simulations ran is caught without a round trip of its own.
   */
  async function assessAtBlock(
    request: QuoteRequest,
    candidates: Candidate[],
    at: AssessAt,
  ): Promise<Assessment[]> {
    const [assessments, canonical] = await Promise.all([
      Promise.all(candidates.map((candidate) => assessCandidate(deps, request, candidate, at))),
      deps.client.getBlock({ blockNumber: at.block.number }),
    ]);
    if (canonical.hash !== at.block.hash)
      throw new QuoteError("BLOCK_REORGED", "the quote block was reorged during assessment; ask again");
    return assessments;
  }
}

/** What `promise` resolves to if it settles within `ms`, else undefined (it keeps running). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** No candidate at all: nothing connects the pair (or the named provider offered nothing). */
function noRoute(request: QuoteRequest): QuoteError {
  return new QuoteError(
    "NO_ROUTE",
    request.provider === undefined || request.provider === "service"
      ? "no verified pool path connects the pair for this amount"
      : `${request.provider} offered no route for the pair and amount`,
  );
}

/** Candidates with identical calldata are one candidate (docs/rules.md, comparison rule 3). */
function dedupe(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    if (seen.has(candidate.tx.data)) return false;
    seen.add(candidate.tx.data);
    return true;
  });
}
