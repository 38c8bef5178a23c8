import { type Hex, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createFeeAnswers } from "./fee-answers.ts";
import type { FeeTerms } from "./quote-types.ts";

/** Registry state `n` (a block hash where it began answering). */
const state = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
/** A read of pair `a:b` without a builder. */
const read = (a: number, b: number) => ({ key: `fees:${a}:${b}:none`, builder: "none" });
const terms = (serviceFeeBps: number, policyVersion = 1): FeeTerms => ({
  serviceFeeBps,
  builderBps: 0,
  builderRecipient: zeroAddress,
  policyVersion,
  pairFee: false,
  builder: null,
});

describe("fee answers: what a quote's fee terms are guessed from", () => {
  it("has nothing to guess from before the registry answered", () => {
    expect(createFeeAnswers().guess(state(1), read(1, 2))).toBeUndefined();
  });

  it("guesses from another pair's terms at the same state, the pair's own first", () => {
    const answers = createFeeAnswers();
    answers.record(state(1), read(1, 2), terms(30));
    answers.record(state(1), read(3, 4), terms(5));
    expect(answers.guess(state(1), read(5, 6))?.serviceFeeBps).toBe(5);
    expect(answers.guess(state(1), read(1, 2))?.serviceFeeBps).toBe(30);
  });

  it("guesses from the newest earlier state's answers at a state nothing was answered at yet", () => {
    const answers = createFeeAnswers();
    answers.record(state(1), read(1, 2), terms(30));
    answers.record(state(1), read(3, 4), terms(5));
    // A new state: each pair's own earlier terms, else another pair's.
    expect(answers.guess(state(2), read(3, 4))?.serviceFeeBps).toBe(5);
    expect(answers.guess(state(2), read(1, 2))?.serviceFeeBps).toBe(30);
    expect(answers.guess(state(2), read(5, 6))?.serviceFeeBps).toBe(5);
    // Once the new state answered, its answers come first.
    answers.record(state(2), read(7, 8), terms(30, 2));
    expect(answers.guess(state(2), read(3, 4))?.policyVersion).toBe(2);
    // Only the last two states' answers are kept: the pair's own terms at the first are forgotten.
    answers.record(state(3), read(7, 8), terms(30, 2));
    expect(answers.guess(state(4), read(3, 4))).toMatchObject({ serviceFeeBps: 30, policyVersion: 2 });
  });

  it("keeps guessing from a state whose reads answer after a newer state's", () => {
    const answers = createFeeAnswers();
    answers.record(state(2), read(1, 2), terms(30));
    answers.record(state(1), read(3, 4), terms(5));
    expect(answers.guess(state(3), read(1, 2))?.serviceFeeBps).toBe(30);
    expect(answers.guess(state(3), read(3, 4))?.serviceFeeBps).toBe(5);
  });
});
