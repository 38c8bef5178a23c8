import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestGroups, pricedGroups, type Worth } from "./priced-groups.ts";

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

describe("bestGroups", () => {
  it("keeps the same totals as an enumeration of every pool-disjoint group, at any size and limit", () => {
    const entry = fc.record({
      g: fc.double({ min: 0.001, max: 1000, noNaN: true }),
      pools: fc.subarray([..."abcdef"]),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 0, maxLength: 9 }),
        fc.constantFrom(undefined, 1, 2, 3),
        fc.integer({ min: 1, max: 5 }),
        (entries, size, limit) => {
          const worth: Worth[] = entries
            .map((e, row) => ({ row, g: e.g, share: 10 }))
            .sort((a, b) => b.g - a.g);
          const disjoint = (a: number, b: number) =>
            !entries[a]!.pools.some((pool) => entries[b]!.pools.includes(pool));
          // Every group, its members in `worth` order, summed in that order.
          const totals: number[] = [];
          const grow = (members: number[], total: number, from: number) => {
            if (members.length > 0 && (size === undefined || members.length === size)) totals.push(total);
            if (members.length === (size ?? 3)) return;
            for (let i = from; i < worth.length; i++)
              if (members.every((m) => disjoint(worth[m]!.row, worth[i]!.row)))
                grow([...members, i], total + worth[i]!.g, i + 1);
          };
          grow([], 0, 0);
          const expected = totals.sort((a, b) => b - a).slice(0, limit);
          const found = bestGroups(worth, disjoint, 3, size, limit);
          expect(found.map((group) => group.reduce((sum, member) => sum + member.g, 0))).toEqual(expected);
          for (const group of found) {
            for (const [i, a] of group.entries())
              for (const b of group.slice(i + 1)) expect(disjoint(a.row, b.row)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
