import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestGroups, pathWorth, pricedGroups, type Worth } from "./priced-groups.ts";

const SHARES = [10, 33, 50] as const;
/** A row read from a table of values, with the given ceilings (default: the values themselves). */
const tableRow = <C>(curve: C, pools: string[], values: number[], ceilings: number[] = values) => ({
  curve,
  pools: new Set(pools),
  valueAt: (k: number) => values[k]!,
  ceilings,
});
/** A concave curve scaled by `size`: at the price where 33% is each path's best share, worth grows with size. */
const row = (curve: string, size: number, pools: string[]) =>
  tableRow(curve, pools, [0.35 * size, size, 1.05 * size]);

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

  it("finds the groups reading every value would, reading each at most once and only where a ceiling leaves it open", () => {
    const shares = [1, 5, 10, 25, 50, 100];
    // Small integers make ties between shares and between paths common; -Infinity is a share not filled.
    const value = fc.oneof(fc.integer({ min: -50, max: 400 }), fc.constant(-Infinity));
    const path = fc.record({
      values: fc.array(value, { minLength: shares.length, maxLength: shares.length }),
      slack: fc.array(fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constant(Infinity)), {
        minLength: shares.length,
        maxLength: shares.length,
      }),
      pools: fc.subarray([..."abcdef"], { minLength: 1 }),
    });
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), fc.integer({ min: 1, max: 4 }), (paths, count) => {
        const reads = new Map<string, number>();
        const lazy = paths.map((p, i) => {
          // A ceiling is at least the value: the value itself plus some slack, or none at all.
          const ceilings = p.values.map((v, k) => (v === -Infinity ? p.slack[k]! : v + p.slack[k]!));
          const r = tableRow(i, p.pools, p.values, ceilings);
          return {
            ...r,
            valueAt: (k: number) => {
              reads.set(`${i}:${k}`, (reads.get(`${i}:${k}`) ?? 0) + 1);
              return r.valueAt(k);
            },
          };
        });
        const every = paths.map((p, i) =>
          tableRow(
            i,
            p.pools,
            p.values,
            p.values.map(() => Infinity),
          ),
        );
        const options = { maxBranches: 3, count };
        expect(pricedGroups(lazy, shares, options)).toEqual(pricedGroups(every, shares, options));
        for (const times of reads.values()) expect(times).toBe(1);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads no value of a path whose ceilings are worth nothing at every price the search tries", () => {
    const read: string[] = [];
    const watched = (name: string, values: number[], ceilings: number[]) => ({
      ...tableRow(name, [name], values, ceilings),
      valueAt: (k: number) => {
        read.push(name);
        return values[k]!;
      },
    });
    // A and B together take the whole input at 60% each once the price falls to about 0.05 per percent;
    // C's ceilings are worth nothing at any price above 0.005.
    const shares = [10, 33, 60];
    const rows = [
      watched("A", [3.5, 10, 11.5], [3.5, 10, 11.5]),
      watched("B", [3.15, 9, 10.35], [3.15, 9, 10.35]),
      watched("C", [0.01, 0.02, 0.03], [0.05, 0.1, 0.2]),
    ];
    const groups = pricedGroups(rows, shares, { maxBranches: 3, count: 4 });
    expect(groups.map((group) => group.members)).toEqual([["A", "B"]]);
    expect(read).not.toContain("C");
  });

  it("finds no group when no two paths are pool-disjoint", () => {
    const rows = [row("P", 10, ["a", "b"]), row("Q", 9, ["a"]), row("R", 8, ["a", "c"])];
    expect(pricedGroups(rows, SHARES, { maxBranches: 3, count: 4 })).toEqual([]);
  });
});

describe("pathWorth", () => {
  it("gives the worth and share a scan of every value gives, ties to the smallest share, reading no value twice", () => {
    const shares = [1, 2, 4, 8, 16];
    // Integers throughout, so that ties between shares are exact and common.
    const value = fc.oneof(fc.integer({ min: -20, max: 200 }), fc.constant(-Infinity));
    const slack = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(Infinity));
    const row = fc.record({
      values: fc.array(value, { minLength: shares.length, maxLength: shares.length }),
      slack: fc.array(slack, { minLength: shares.length, maxLength: shares.length }),
    });
    fc.assert(
      fc.property(row, fc.integer({ min: 0, max: 30 }), ({ values, slack }, lambda) => {
        let [g, share] = [0, 0];
        for (let k = 0; k < shares.length; k++) {
          const w = values[k]! - lambda * shares[k]!;
          if (w > g) [g, share] = [w, shares[k]!];
        }
        const ceilings = values.map((v, k) => (v === -Infinity ? slack[k]! : v + slack[k]!));
        const reads: number[] = [];
        const found = pathWorth(
          ceilings,
          (k) => {
            reads.push(k);
            return values[k]!;
          },
          shares,
          lambda,
          new Float64Array(shares.length),
        );
        expect(found).toEqual(share > 0 ? { g, share } : undefined);
        expect(new Set(reads).size).toBe(reads.length);
      }),
      { numRuns: 5000 },
    );
  });

  it("takes the smaller of two shares worth the same, though the larger one's ceiling is read first", () => {
    // At λ = 2: share 1 is worth 4 − 2 = 2 and share 2 is worth 6 − 4 = 2; share 2's ceiling is higher.
    const found = pathWorth([4, 100], (k) => [4, 6][k]!, [1, 2], 2, new Float64Array(2));
    expect(found).toEqual({ g: 2, share: 1 });
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
