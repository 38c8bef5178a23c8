import { describe, expect, it } from "vitest";
import { pricedGroups } from "./priced-groups.ts";

const SHARES = [10, 33, 50] as const;
/** A concave curve scaled by `size`: at the price where 33% is each path's best share, worth grows with size. */
const row = (curve: string, size: number, pools: string[]) => ({
  curve,
  pools: new Set(pools),
  values: [0.35 * size, size, 1.05 * size],
});

describe("priced groups", () => {
  // T and W1..W3 are worth the most alone, but each shares a pool with two of S1..S3 (and with each other).
  // Grown greedily from any of the four best, a group ends at two paths; the three small paths, each worth
  // less, are the one group of three and worth the most together.
  it("finds the pool-disjoint group of greatest worth, which greedy growth from the best paths misses", () => {
    const rows = [
      row("T", 10, ["a", "b", "c"]),
      row("W1", 9.5, ["b", "c", "w"]),
      row("W2", 9.4, ["a", "c", "w"]),
      row("W3", 9.3, ["a", "b", "w"]),
      row("S1", 9, ["a"]),
      row("S2", 9, ["b"]),
      row("S3", 9, ["c"]),
    ];
    const groups = pricedGroups(rows, SHARES, { maxBranches: 3, count: 4 });
    expect(groups.map((group) => [...group.members].sort())).toEqual([["S1", "S2", "S3"]]);
    // Each takes a share it is priced at; the bracket's ends lie either side of the whole input.
    for (const share of groups[0]!.shares) expect([33, 50]).toContain(share);
  });

  it("finds no group when no two paths are pool-disjoint", () => {
    const rows = [row("P", 10, ["a", "b"]), row("Q", 9, ["a"]), row("R", 8, ["a", "c"])];
    expect(pricedGroups(rows, SHARES, { maxBranches: 3, count: 4 })).toEqual([]);
  });
});
