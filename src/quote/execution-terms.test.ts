import { describe, expect, it } from "vitest";
import {
  candidateTerms,
  type ExecutionRequest,
  executionDeadline,
  minimumFor,
  minOutBelow,
  sameTerms,
} from "./execution-terms.ts";

const recipient = "0x00000000000000000000000000000000000b0b00" as const;
const block = { timestamp: 1_000n };

describe("execution terms", () => {
  it("puts a slippage minimum below each candidate's own quote, rounded down", () => {
    expect(minOutBelow(10_001n, 50)).toBe(9_950n);
    const terms = candidateTerms(
      { recipient, minimum: { slippageBps: 50 }, deadline: { at: 2_000n } },
      10_001n,
      block,
      undefined,
    );
    expect(terms).toEqual({ recipient, minOut: 9_950n, deadline: 2_000n });
    // What the surface asks once the run delivered the quote: the same calldata.
    expect(minimumFor({ slippageBps: 50 }, 10_001n)).toBe(terms.minOut);
  });

  it("keeps an explicit minimum, or the quote itself when the minimum is above it", () => {
    const explicit = (minOut: bigint): ExecutionRequest => ({
      recipient,
      minimum: { minOut },
      deadline: { at: 2_000n },
    });
    expect(candidateTerms(explicit(900n), 1_000n, block, undefined).minOut).toBe(900n);
    expect(candidateTerms(explicit(1_000n), 1_000n, block, undefined).minOut).toBe(1_000n);
    expect(candidateTerms(explicit(1_001n), 1_000n, block, undefined).minOut).toBe(1_000n);
  });

  it("counts a default deadline from the later of the wall clock and the block, capped by a firm expiry", () => {
    const seconds = 600n;
    expect(executionDeadline({ from: 900n, seconds }, block.timestamp, undefined)).toBe(1_600n);
    expect(executionDeadline({ from: 1_100n, seconds }, block.timestamp, undefined)).toBe(1_700n);
    expect(executionDeadline({ from: 1_100n, seconds }, block.timestamp, 1_200n)).toBe(1_200n);
    expect(executionDeadline({ at: 5_000n }, block.timestamp, 1_200n)).toBe(1_200n);
    expect(executionDeadline({ at: 1_100n }, block.timestamp, 1_200n)).toBe(1_100n);
  });

  it("tells the same transaction's terms apart from another's", () => {
    const attribution = { quoteId: `0x${"1".repeat(64)}`, keyIdHash: `0x${"2".repeat(64)}` } as const;
    const a = { recipient, minOut: 1n, deadline: 2n, attribution };
    expect(sameTerms(a, { ...a, recipient: recipient.toUpperCase() as typeof recipient })).toBe(true);
    expect(sameTerms(a, { ...a, minOut: 2n })).toBe(false);
    expect(sameTerms(a, { ...a, deadline: 3n })).toBe(false);
    expect(sameTerms(a, { recipient, minOut: 1n, deadline: 2n })).toBe(false);
    expect(sameTerms(a, { ...a, attribution: { ...attribution, quoteId: `0x${"3".repeat(64)}` } })).toBe(
      false,
    );
  });
});
