import fc from "fast-check";
import type { Address } from "viem";
import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import { BUILDER_LIMITS } from "./limits.ts";
import {
  ALLOCATION,
  allocateMultiSwap,
  MultiPlanError,
  PARTIAL_COMPLETION,
  splitByWeight,
  toMultiSwapPlan,
} from "./multi-plan.ts";

const token = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const [A, B, C, D, E, F, G, H] = [
  token(1),
  token(2),
  token(3),
  token(4),
  token(5),
  token(6),
  token(7),
  token(8),
];

function failure(run: () => unknown): MultiPlanError {
  try {
    run();
  } catch (error) {
    if (error instanceof MultiPlanError) return error;
    throw error;
  }
  throw new Error("expected a MultiPlanError");
}

describe("splitByWeight", () => {
  it("rounds each share down and gives the remainder to the last", () => {
    expect(splitByWeight(10n, [3333, 3333, 3334])).toEqual([3n, 3n, 4n]);
    expect(splitByWeight(1n, [5000, 5000])).toEqual([0n, 1n]);
    expect(splitByWeight(1_000_000n, [10_000])).toEqual([1_000_000n]);
  });

  it("always sums exactly to the amount, up to 2^256 - 1", () => {
    const weights = fc
      .array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 4 })
      .filter((w) => w.reduce((a, b) => a + b, 0) <= 10_000)
      .map((w) => [...w.slice(0, -1), 10_000 - w.slice(0, -1).reduce((a, b) => a + b, 0)])
      .filter((w) => w.every((x) => x >= 1));
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: maxUint256 }), weights, (amount, w) => {
        const shares = splitByWeight(amount, w);
        expect(shares.reduce((a, b) => a + b, 0n)).toBe(amount);
        expect(shares.every((share) => share >= 0n)).toBe(true);
      }),
    );
  });

  it("refuses weights that do not total 10000", () => {
    expect(() => splitByWeight(10n, [5000, 4999])).toThrow(RangeError);
  });
});

describe("allocateMultiSwap", () => {
  it("gives one swap per (input, output) pair, input-major, each input summing to its amount", () => {
    const swaps = allocateMultiSwap({
      inputs: [
        { token: A, amount: 1_000_001n },
        { token: B, amount: 7n },
      ],
      outputs: [
        { token: C, weightBps: 2500 },
        { token: D, weightBps: 7500 },
      ],
    });
    expect(swaps).toEqual([
      { tokenIn: A, tokenOut: C, amountIn: 250_000n },
      { tokenIn: A, tokenOut: D, amountIn: 750_001n },
      { tokenIn: B, tokenOut: C, amountIn: 1n },
      { tokenIn: B, tokenOut: D, amountIn: 6n },
    ]);
  });

  it("plans at most 16 swaps for 4 inputs × 4 outputs, the leg limit (docs/rules.md, limits)", () => {
    const swaps = allocateMultiSwap({
      inputs: [A, B, C, D].map((t, i) => ({ token: t, amount: 10n ** 18n + BigInt(i) })),
      outputs: [E, F, G, H].map((t) => ({ token: t, weightBps: 2500 })),
    });
    expect(swaps).toHaveLength(16);
    expect(swaps.length).toBeLessThanOrEqual(BUILDER_LIMITS.planLegs.max);
    for (const [i, input] of [A, B, C, D].entries()) {
      const sum = swaps.filter((s) => s.tokenIn === input).reduce((a, s) => a + s.amountIn, 0n);
      expect(sum).toBe(10n ** 18n + BigInt(i));
    }
  });

  it("skips an output equal to its input's token, whatever its case: that share stays with the payer", () => {
    const lowerX = `0x${"ab".repeat(20)}` as Address;
    const upperX = `0x${"AB".repeat(20)}` as Address;
    const swaps = allocateMultiSwap({
      inputs: [
        { token: lowerX, amount: 100n },
        { token: B, amount: 100n },
      ],
      outputs: [
        { token: upperX, weightBps: 4000 },
        { token: C, weightBps: 6000 },
      ],
    });
    expect(swaps).toEqual([
      { tokenIn: lowerX, tokenOut: C, amountIn: 60n },
      { tokenIn: B, tokenOut: upperX, amountIn: 40n },
      { tokenIn: B, tokenOut: C, amountIn: 60n },
    ]);
  });

  it("refuses terms where every output is its input's token: nothing to swap", () => {
    const error = failure(() =>
      allocateMultiSwap({ inputs: [{ token: A, amount: 5n }], outputs: [{ token: A, weightBps: 10_000 }] }),
    );
    expect(error.kind).toBe("no-swaps");
    expect(error.issues).toEqual([{ path: "input.outputs", message: expect.any(String) }]);
  });

  it("refuses a leg that would move nothing", () => {
    const error = failure(() =>
      allocateMultiSwap({
        inputs: [{ token: A, amount: 1n }],
        outputs: [
          { token: B, weightBps: 5000 },
          { token: C, weightBps: 5000 },
        ],
      }),
    );
    expect(error.kind).toBe("no-swaps");
    expect(error.issues?.map((i) => i.path)).toEqual(["input.inputs.0.amount"]);
  });

  it("requires weights totalling exactly 10000", () => {
    for (const weights of [[5000, 4999], [5000, 5001], [9999]]) {
      const error = failure(() =>
        allocateMultiSwap({
          inputs: [{ token: A, amount: 10n ** 6n }],
          outputs: weights.map((weightBps, i) => ({ token: token(100 + i), weightBps })),
        }),
      );
      expect(error.kind).toBe("invalid-terms");
      expect(error.issues).toEqual([{ path: "input.outputs", message: expect.stringContaining("10000") }]);
    }
  });

  it("refuses a token repeated within the inputs or within the outputs, whatever its case", () => {
    const error = failure(() =>
      allocateMultiSwap({
        inputs: [
          { token: A, amount: 1n },
          { token: B, amount: 1n },
          { token: A, amount: 2n },
        ],
        outputs: [
          { token: `0x${"ab".repeat(20)}`, weightBps: 5000 },
          { token: `0x${"AB".repeat(20)}`, weightBps: 5000 },
        ],
      }),
    );
    expect(error.kind).toBe("invalid-terms");
    expect(error.issues?.map((i) => i.path)).toEqual(["input.inputs.2.token", "input.outputs.1.token"]);
  });
});

describe("toMultiSwapPlan", () => {
  it("builds the plan (docs/rules.md, multi-swap rule 4): every leg holds one builder quote's terms", () => {
    const swaps = [
      { tokenIn: A, tokenOut: C, amountIn: 3n },
      { tokenIn: B, tokenOut: C, amountIn: 4n },
    ];
    const plan = toMultiSwapPlan(swaps, {
      payer: E,
      recipient: F,
      builderCode: "junction-demo",
      builderFeeBps: 10,
      slippageBps: 50,
    });
    expect(plan).toEqual({
      chainId: CHAIN_ID,
      execution: "sequential",
      atomic: false,
      payer: E,
      recipient: F,
      legs: swaps.map((swap) => ({
        chainId: CHAIN_ID,
        payer: E,
        recipient: F,
        ...swap,
        builderCode: "junction-demo",
        builderFeeBps: 10,
        slippageBps: 50,
      })),
      swapCount: 2,
      allocation: ALLOCATION,
      partialCompletion: PARTIAL_COMPLETION,
    });
  });
});
