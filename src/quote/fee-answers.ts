import type { Hex } from "viem";
import type { FeeTerms } from "./quote-types.ts";

/** A fee read's keys: the pair and builder terms, and the builder terms alone (any pair). */
export type FeeKeys = { key: string; builder: string };

/** Fee terms answered at one state that are kept by read, and by builder terms. */
const ANSWERS_KEPT = 4096;
/** Registry states whose answers are kept: the newest, and the one before it to guess from at a new one. */
const STATES_KEPT = 2;

/**
 * The fee terms the registry answered, by read and by builder terms (any pair), at the last `STATES_KEPT`
 * states it began answering at. A guess takes the state's own answers, else the earlier states', newest
 * first; a pair's own terms before another pair's.
 */
export function createFeeAnswers() {
  type Answers = { state: Hex; byRead: Map<string, FeeTerms>; byBuilder: Map<string, FeeTerms> };
  const states: Answers[] = [];
  return {
    record(state: Hex, { key, builder }: FeeKeys, terms: FeeTerms): void {
      let answers = states.find((known) => known.state === state);
      if (!answers) {
        answers = { state, byRead: new Map(), byBuilder: new Map() };
        states.push(answers);
        if (states.length > STATES_KEPT) states.shift();
      }
      if (answers.byRead.size < ANSWERS_KEPT) answers.byRead.set(key, terms);
      if (answers.byBuilder.size < ANSWERS_KEPT || answers.byBuilder.has(builder))
        answers.byBuilder.set(builder, terms);
    },
    guess(state: Hex, { key, builder }: FeeKeys): FeeTerms | undefined {
      const now = states.find((known) => known.state === state);
      const before = states.filter((known) => known.state !== state).reverse();
      return (
        now?.byRead.get(key) ??
        now?.byBuilder.get(builder) ??
        before.find((known) => known.byRead.has(key))?.byRead.get(key) ??
        before.find((known) => known.byBuilder.has(builder))?.byBuilder.get(builder)
      );
    },
  };
}
