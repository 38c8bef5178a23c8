import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { ExecutionRequest } from "./execution-terms.ts";
import type { QuoteRequest } from "./quote-types.ts";
import { aggregatorPayee } from "./through-executor.ts";

const EXECUTOR: Address = "0x00000000000000000000000000000000000e4ec0";
const RECIPIENT: Address = "0x000000000000000000000000000000000000beef";
const BUILDER = "0x1111111111111111111111111111111111111111111111111111111111111111" as const;

const execution: ExecutionRequest = {
  recipient: RECIPIENT,
  minimum: { slippageBps: 50 },
  deadline: { from: 0n, seconds: 600n },
};
const request = (extra: Partial<QuoteRequest>): QuoteRequest => ({
  tokenIn: zeroAddress,
  tokenOut: "0x0000000000000000000000000000000000000001",
  amountIn: 1n,
  throughExecutor: true,
  ...extra,
});

describe("aggregatorPayee: whom a third-party transaction run through the executor pays", () => {
  it("pays the recipient directly when no builder fee can be charged", () => {
    // A partner quote (no builder), and a builder quote asking for a zero fee.
    expect(aggregatorPayee(request({ execution }), EXECUTOR, undefined)).toBe(RECIPIENT);
    expect(aggregatorPayee(request({ execution, builder: { id: BUILDER, feeBps: 0 } }), EXECUTOR, 25)).toBe(
      RECIPIENT,
    );
    // The registered default, guessed (or read) as zero.
    expect(aggregatorPayee(request({ execution, builder: { id: BUILDER } }), EXECUTOR, 0)).toBe(RECIPIENT);
  });

  it("pays the executor when a builder fee is charged or not yet known, or no recipient is named", () => {
    expect(aggregatorPayee(request({ execution, builder: { id: BUILDER, feeBps: 10 } }), EXECUTOR, 0)).toBe(
      EXECUTOR,
    );
    expect(aggregatorPayee(request({ execution, builder: { id: BUILDER } }), EXECUTOR, 25)).toBe(EXECUTOR);
    expect(aggregatorPayee(request({ execution, builder: { id: BUILDER } }), EXECUTOR, undefined)).toBe(
      EXECUTOR,
    );
    // A quote without a recipient may be built later for any recipient: only the executor serves them all.
    expect(aggregatorPayee(request({}), EXECUTOR, undefined)).toBe(EXECUTOR);
  });
});
