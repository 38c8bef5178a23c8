import type { Address } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { BUILDER_LIMITS } from "./limits.ts";

/** The amounts side of a multi-swap request, already shape-checked at the edge (ranges, patterns, counts). */
export type AllocationTerms = {
  inputs: readonly { token: Address; amount: bigint }[];
  outputs: readonly { token: Address; weightBps: number }[];
};

/** One swap of the plan before attribution: which input sells how much for which output. */
export type Allocation = { tokenIn: Address; tokenOut: Address; amountIn: bigint };

/** The terms every leg shares. */
export type LegTerms = {
  payer: Address;
  recipient: Address;
  builderCode: string;
  builderFeeBps: number;
  slippageBps: number;
};

/** One leg: exactly the terms of one builder quote, every field present. */
export type PlanLeg = {
  chainId: typeof CHAIN_ID;
  payer: Address;
  recipient: Address;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  builderCode: string;
  builderFeeBps: number;
  slippageBps: number;
};

/** The multi-swap plan (docs/rules.md, multi-swap rule 4). */
export type MultiSwapPlan = {
  chainId: typeof CHAIN_ID;
  execution: "sequential";
  atomic: false;
  payer: Address;
  recipient: Address;
  legs: PlanLeg[];
  swapCount: number;
  allocation: typeof ALLOCATION;
  partialCompletion: typeof PARTIAL_COMPLETION;
};

/** Each input is split across the outputs by weight; the rounding remainder goes to the last output. */
export const ALLOCATION = "weighted-per-input";
/** Legs run one after another, not atomically: legs completed before a failing one stay completed. */
export const PARTIAL_COMPLETION = "completed-legs-stay-completed";

export type PlanIssue = { path: string; message: string };

/**
 * Terms no plan can serve. `invalid-terms`: a rule between fields is broken (weights, duplicate tokens);
 * `no-swaps`: the terms are well formed but need no swap, or a leg would move nothing.
 */
export class MultiPlanError extends JunctionError {
  override name = "MultiPlanError";
  constructor(
    readonly kind: "invalid-terms" | "no-swaps",
    message: string,
    /** Paths name the request's fields (`input.outputs`, `input.inputs.1.amount`). */
    issues: PlanIssue[],
  ) {
    super(kind === "invalid-terms" ? "INVALID_REQUEST" : "UNSUPPORTED_TERMS", message, { issues });
  }
}

/**
 * Allocates a multi-swap's inputs to its outputs (docs/rules.md, multi-swap rules 2-3 and limits):
 * weights must total 10000 bps and tokens may not repeat within the inputs or within the outputs. Each
 * input is split across the outputs by {@link splitByWeight}; a share whose output is the input's own token
 * needs no swap and stays with the payer (no leg, no transfer). The other (input, output) pairs become
 * swaps in input order, then output order: at most 4 × 4 = 16, the leg limit (docs/rules.md, limits). Every
 * swap must move at least one base unit, and there must be at least one.
 */
export function allocateMultiSwap(terms: AllocationTerms): Allocation[] {
  const issues = [
    ...weightIssues(terms.outputs),
    ...duplicateIssues("inputs", terms.inputs),
    ...duplicateIssues("outputs", terms.outputs),
  ];
  if (issues.length > 0) throw new MultiPlanError("invalid-terms", "the plan's terms are invalid", issues);

  const weights = terms.outputs.map((output) => output.weightBps);
  const swaps: Allocation[] = [];
  const tooSmall: PlanIssue[] = [];
  terms.inputs.forEach((input, i) => {
    const shares = splitByWeight(input.amount, weights);
    terms.outputs.forEach((output, j) => {
      if (sameToken(input.token, output.token)) return;
      const amountIn = shares[j]!;
      if (amountIn === 0n) {
        tooSmall.push({
          path: `input.inputs.${i}.amount`,
          message: `too small to split: its share for outputs.${j} would be 0`,
        });
      } else {
        swaps.push({ tokenIn: input.token, tokenOut: output.token, amountIn });
      }
    });
  });
  if (tooSmall.length > 0) throw new MultiPlanError("no-swaps", "a leg would swap nothing", tooSmall);
  if (swaps.length === 0) {
    throw new MultiPlanError("no-swaps", "every output is its input's own token: nothing to swap", [
      { path: "input.outputs", message: "at least one output must differ from an input token" },
    ]);
  }
  return swaps;
}

/**
 * The multi-swap plan (docs/rules.md, multi-swap rule 4) of allocated swaps: one leg per swap, each carrying
 * every shared term.
 */
export function toMultiSwapPlan(swaps: readonly Allocation[], terms: LegTerms): MultiSwapPlan {
  const legs = swaps.map(
    (swap): PlanLeg => ({
      chainId: CHAIN_ID,
      payer: terms.payer,
      recipient: terms.recipient,
      ...swap,
      builderCode: terms.builderCode,
      builderFeeBps: terms.builderFeeBps,
      slippageBps: terms.slippageBps,
    }),
  );
  return {
    chainId: CHAIN_ID,
    execution: "sequential",
    atomic: false,
    payer: terms.payer,
    recipient: terms.recipient,
    legs,
    swapCount: legs.length,
    allocation: ALLOCATION,
    partialCompletion: PARTIAL_COMPLETION,
  };
}

/**
 * Splits `amount` by basis-point weights totalling 10000 with integer math: each share is
 * `amount × weight / 10000` rounded down, and the last takes what rounding left, so the shares sum to
 * `amount` exactly.
 */
export function splitByWeight(amount: bigint, weightsBps: readonly number[]): bigint[] {
  const total = BigInt(BUILDER_LIMITS.outputWeightsTotalBps);
  if (weightsBps.reduce((sum, weight) => sum + weight, 0) !== BUILDER_LIMITS.outputWeightsTotalBps)
    throw new RangeError(`weights must total ${total} bps`);
  const shares = weightsBps.map((weight) => (amount * BigInt(weight)) / total);
  const rest = amount - shares.reduce((sum, share) => sum + share, 0n);
  shares[shares.length - 1]! += rest;
  return shares;
}

function weightIssues(outputs: AllocationTerms["outputs"]): PlanIssue[] {
  const total = outputs.reduce((sum, output) => sum + output.weightBps, 0);
  return total === BUILDER_LIMITS.outputWeightsTotalBps
    ? []
    : [
        {
          path: "input.outputs",
          message: `weightBps must total ${BUILDER_LIMITS.outputWeightsTotalBps} (got ${total})`,
        },
      ];
}

function duplicateIssues(list: "inputs" | "outputs", items: readonly { token: Address }[]): PlanIssue[] {
  return items.flatMap((item, i) =>
    items.findIndex((other) => sameToken(other.token, item.token)) < i
      ? [{ path: `input.${list}.${i}.token`, message: `repeats an earlier ${list.slice(0, -1)} token` }]
      : [],
  );
}

const sameToken = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();
