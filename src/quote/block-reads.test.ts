import { type Address, type Hex, type PublicClient, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createBlockReads } from "./block-reads.ts";

const registry = "0x00000000000000000000000000000000000f0e00" as const;
const token = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const request = (tokenIn: number, tokenOut: number) => ({
  tokenIn: token(tokenIn),
  tokenOut: token(tokenOut),
  amountIn: 1n,
});
/** Block `n`, a registry state of its own (no followed state). */
const block = (n: number) => ({ number: BigInt(n), hash: `0x${n.toString(16).padStart(64, "0")}` as Hex });

/** A registry whose route fee is `fees[pair]` (else 30 bps) at policy version `version`. */
function fakeRegistry(fees: Record<string, number>, version = 1n) {
  const registryState = { fees, version };
  const client = {
    readContract: async ({ args }: { args: readonly [Address, Address, Hex] }) => ({
      treasury: zeroAddress,
      routeFeeBps: registryState.fees[`${BigInt(args[0])}:${BigInt(args[1])}`] ?? 30,
      builderFeeCapBps: 0,
      builderRecipient: zeroAddress,
      policyVersion: registryState.version,
    }),
  } as unknown as PublicClient;
  return { client, registryState };
}

describe("block reads' fee terms guess", () => {
  it("has nothing to guess from before the registry answered", () => {
    const reads = createBlockReads(fakeRegistry({}).client, registry);
    expect(reads.guessFeeTerms(request(1, 2), block(1))).toBeUndefined();
  });

  it("guesses from another pair's terms at the same state, the pair's own first", async () => {
    const reads = createBlockReads(fakeRegistry({ "3:4": 5 }).client, registry);
    await reads.feeTerms(request(1, 2), block(1));
    await reads.feeTerms(request(3, 4), block(1));
    expect(reads.guessFeeTerms(request(5, 6), block(1))?.serviceFeeBps).toBe(5);
    expect(reads.guessFeeTerms(request(1, 2), block(1))?.serviceFeeBps).toBe(30);
  });

  it("guesses from the newest earlier state's answers at a state nothing was answered at yet", async () => {
    const { client, registryState } = fakeRegistry({ "3:4": 5 });
    const reads = createBlockReads(client, registry);
    await reads.feeTerms(request(1, 2), block(1));
    await reads.feeTerms(request(3, 4), block(1));
    // A new state: each pair's own earlier terms, else another pair's.
    expect(reads.guessFeeTerms(request(3, 4), block(2))?.serviceFeeBps).toBe(5);
    expect(reads.guessFeeTerms(request(1, 2), block(2))?.serviceFeeBps).toBe(30);
    expect(reads.guessFeeTerms(request(5, 6), block(2))?.serviceFeeBps).toBe(5);
    // Once the new state answered, its answers come first.
    registryState.version = 2n;
    await reads.feeTerms(request(7, 8), block(2));
    expect(reads.guessFeeTerms(request(3, 4), block(2))?.policyVersion).toBe(2);
    // Only the last two states' answers are kept: the pair's own terms at the first are forgotten.
    await reads.feeTerms(request(7, 8), block(3));
    expect(reads.guessFeeTerms(request(3, 4), block(4))).toMatchObject({
      serviceFeeBps: 30,
      policyVersion: 2,
    });
  });

  it("keeps guessing from a state whose reads answer after a newer state's", async () => {
    const reads = createBlockReads(fakeRegistry({ "3:4": 5 }).client, registry);
    await reads.feeTerms(request(1, 2), block(2));
    await reads.feeTerms(request(3, 4), block(1));
    expect(reads.guessFeeTerms(request(1, 2), block(3))?.serviceFeeBps).toBe(30);
    expect(reads.guessFeeTerms(request(3, 4), block(3))?.serviceFeeBps).toBe(5);
  });
});
