import { RpcRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { createLogScanner, DEFAULT_LOG_RANGES, LearnedLogRange, nodeLogRanges } from "./log-scanner.ts";

/** A node refusing `eth_getLogs` over more than `cap` blocks (as `-32005 query exceeds max block range`). */
function cappedNode(cap: bigint) {
  const asked: bigint[] = [];
  const read = async (from: bigint, to: bigint) => {
    asked.push(to - from + 1n);
    if (to - from + 1n > cap)
      throw new RpcRequestError({
        body: {},
        error: { code: -32005, message: `query exceeds max block range ${cap}` },
        url: "http://node.example",
      });
    return [] as number[];
  };
  return { read, asked, refusals: () => asked.filter((blocks) => blocks > cap).length };
}

describe("log scanner", () => {
  it("learns a node's range limit in a few refusals and keeps close to it", async () => {
    const node = cappedNode(100n);
    const refused: bigint[] = [];
    const learned = new LearnedLogRange((blocks) => refused.push(blocks));
    const scanner = createLogScanner({ ...DEFAULT_LOG_RANGES, learned, backoffMs: 0 });
    await scanner.scan(0n, 200_000n, node.read);
    // 5000 bisected down to 78, then the gap to the limit bisected: 117 refused, 97 kept, 107 refused.
    expect(node.refusals()).toBeLessThanOrEqual(9);
    expect(scanner.range()).toBeGreaterThanOrEqual(90n);
    expect(scanner.range()).toBeLessThanOrEqual(100n);
    expect(node.asked.length).toBeLessThan(200_000 / 90 + 12);
    expect(refused).toHaveLength(node.refusals());

    // Another scanner of the same node starts from what was learned: no refusal at all.
    const again = cappedNode(100n);
    await createLogScanner({ ...DEFAULT_LOG_RANGES, learned, backoffMs: 0 }).scan(0n, 10_000n, again.read);
    expect(again.refusals()).toBe(0);
  });

  it("says the first refusal once and then only counts", async () => {
    const first: boolean[] = [];
    const learned = new LearnedLogRange((_, isFirst) => first.push(isFirst));
    await createLogScanner({ ...DEFAULT_LOG_RANGES, learned }).scan(0n, 50_000n, cappedNode(1_000n).read);
    expect(first[0]).toBe(true);
    expect(first.slice(1).every((isFirst) => !isFirst)).toBe(true);
  });

  it("keeps within a cap set up front, and grows to the policy's max on a node without limits", async () => {
    const capped = cappedNode(10_000_000n);
    const scanner = createLogScanner({ ...DEFAULT_LOG_RANGES, initial: 500n, max: 500n });
    await scanner.scan(0n, 9_999n, capped.read);
    expect(new Set(capped.asked)).toEqual(new Set([500n]));
    const open = createLogScanner({ ...DEFAULT_LOG_RANGES });
    await open.scan(0n, 1_000_000n, cappedNode(10_000_000n).read);
    expect(open.range()).toBe(DEFAULT_LOG_RANGES.max);
  });

  it("holds a cap set up front (JUNCTION_RPC_MAX_LOG_RANGE) from the first request", () => {
    expect(nodeLogRanges(2_000)).toMatchObject({ initial: 2_000n, max: 2_000n });
    expect(nodeLogRanges(50_000)).toMatchObject({ initial: 5_000n, max: 50_000n });
    expect(nodeLogRanges(undefined)).toMatchObject({ initial: 5_000n, max: 100_000n });
  });

  it("narrows again where a node limiting results refuses a dense range narrower than a sparse one", () => {
    const learned = new LearnedLogRange();
    learned.answered(4_000n);
    learned.refused(8_000n);
    expect(learned.next(4_000n, 8_000n)).toBe(6_000n);
    learned.refused(1_000n);
    expect(learned.afterRefusal(1_000n)).toBe(500n);
    expect(learned.start(5_000n)).toBe(500n);
  });
});
