import fc from "fast-check";
import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { type IndexedPool, isRoutable, poolRef } from "../liquidity/pool-index/pool.ts";
import { PoolSet } from "../liquidity/pool-index/pool-set.ts";
import { assetKey } from "../routing/edge.ts";
import { selectPools } from "./select-pools.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const [A, B, C, D, WETH] = [addr(0xa), addr(0xb), addr(0xc), addr(0xd), addr(0xe)];
const discovery = { block: 1n, blockHash: `0x${"0".repeat(64)}` as const, via: "event" as const };
let n = 0x100;
const v2 = (token0: Address, token1: Address): IndexedPool => ({
  kind: "v2",
  address: addr(n++),
  token0,
  token1,
  fee: 3000,
  discovery,
});
const hooked = (token0: Address, token1: Address): IndexedPool => ({
  kind: "v4",
  poolId: `0x${(n++).toString(16).padStart(64, "0")}`,
  key: { currency0: token0, currency1: token1, fee: 3000, tickSpacing: 60, hooks: addr(0x40c0) },
  token0,
  token1,
  fee: 3000,
  tickSpacing: 60,
  discovery,
  excluded: "hooks",
});

function sourceOf(pools: IndexedPool[]) {
  const poolsOf = (token: Address) =>
    pools.filter(
      (p) => p.token0.toLowerCase() === token.toLowerCase() || p.token1.toLowerCase() === token.toLowerCase(),
    );
  return { poolsOf, poolCountOf: (token: Address) => poolsOf(token).length };
}

const tokens = [A, B, C, D, WETH, zeroAddress, ...Array.from({ length: 10 }, (_, i) => addr(0x20 + i))];
const token = fc.constantFrom(...tokens);
/** Tokens the dense universe's pools hold. */
const denseToken = fc.constantFrom(...tokens.slice(0, 8));
const cap = fc.integer({ min: 1, max: 16 });
/** Pools as (token, token, hooked) edges: several per pair, native ETH beside WETH, some excluded. */
const universe = fc.array(
  fc.tuple(token, token, fc.boolean()).filter(([x, y]) => x !== y),
  { maxLength: 48 },
);
/** The same over eight tokens: pairs with several pools, so ties in depth and the cap cut within them. */
const denseUniverse = fc
  .array(
    fc.tuple(fc.constantFrom(...tokens.slice(0, 8)), fc.constantFrom(...tokens.slice(0, 8)), fc.boolean()),
    { maxLength: 48 },
  )
  .map((edges) => edges.filter(([x, y]) => x !== y));
const poolOf = ([x, y, hooks]: [Address, Address, boolean]) => (hooks ? hooked(x, y) : v2(x, y));
/** Depths per pool and side: unknown, a few values (ties keep the listed order), or spread out. */
const depthTable = fc.array(
  fc.tuple(
    ...([0, 1] as const).map(() =>
      fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1e9 })),
    ),
  ),
  { minLength: 64, maxLength: 64 },
);
/** `table`'s depths for the pools, by their place in `pools`. */
function depthsFrom(pools: readonly IndexedPool[], table: (number | undefined)[][]) {
  const place = new Map(pools.map((pool, i) => [pool, i]));
  return (pool: IndexedPool, side: 0 | 1) => table[place.get(pool)! % table.length]![side];
}

describe("selectPools", () => {
  const direct = v2(A, B);
  const viaC = [v2(A, C), v2(C, B)];
  const viaCD = [v2(C, D), v2(D, B)];
  const conversion = v2(WETH, B);
  const nativeConversion = v2(zeroAddress, B);
  const excluded = hooked(A, B);
  const pools = [direct, ...viaC, ...viaCD, conversion, nativeConversion, excluded];

  it("takes direct pools, conversion pools, then 2-hop and 3-hop connectors, never excluded pools", () => {
    const chosen = selectPools(sourceOf(pools), A, B, WETH);
    expect(chosen[0]).toBe(direct);
    expect(chosen.slice(1, 3)).toEqual([conversion, nativeConversion]);
    expect(chosen).toEqual(expect.arrayContaining([...viaC, viaCD[0]]));
    expect(chosen).not.toContain(excluded);
  });

  it("never exceeds the cap, keeping the highest-priority pools", () => {
    const chosen = selectPools(sourceOf(pools), A, B, WETH, 2);
    expect(chosen).toEqual([direct, conversion]);
  });

  it("selects nothing for tokens with no pools", () => {
    expect(selectPools(sourceOf(pools), addr(0x99), B, WETH)).toEqual([conversion, nativeConversion]);
    expect(selectPools(sourceOf([]), A, B, WETH)).toEqual([]);
  });

  it("keeps the best-connected connectors when the cap bites on three hops", () => {
    const [E, X, Y] = [addr(0x1e), addr(0x1f), addr(0x20)];
    // A → C → (D | E) → B, where E holds more pools than D; D's pool to B is listed first.
    const ac = v2(A, C);
    const [cd, ce] = [v2(C, D), v2(C, E)];
    const [db, eb] = [v2(D, B), v2(E, B)];
    const universe = [ac, cd, ce, db, eb, v2(E, X), v2(E, Y)];
    expect(selectPools(sourceOf(universe), A, B, WETH, 3)).toEqual([ac, ce, eb]);
    expect(selectPools(sourceOf(universe), A, B, WETH)).toEqual([ac, ce, eb, cd, db]);
  });

  it("chooses exactly what the plain priority walk chooses, whatever the universe and cap", () => {
    fc.assert(
      fc.property(universe, token, token, cap, (edges, from, to, cap) => {
        const source = sourceOf(edges.map(poolOf));
        expect(selectPools(source, from, to, WETH, cap)).toEqual(plainWalk(source, from, to, WETH, cap));
      }),
      { numRuns: 1_000 },
    );
  });

  it("with depths known, chooses exactly what the plain walk chooses, from fresh lists and from a PoolSet", () => {
    fc.assert(
      fc.property(
        fc.oneof(universe, denseUniverse),
        depthTable,
        denseToken,
        denseToken,
        cap,
        (edges, table, from, to, cap) => {
          const all = edges.map(poolOf);
          const depthOf = depthsFrom(all, table);
          const expected = plainWalk({ ...sourceOf(all), depthOf }, from, to, WETH, cap);
          expect(selectPools({ ...sourceOf(all), depthOf }, from, to, WETH, cap)).toEqual(expected);
          const set = new PoolSet();
          for (const pool of all) set.add(pool);
          const indexed = {
            poolsOf: (t: Address) => set.of(t),
            poolCountOf: (t: Address) => set.count(t),
            depthOf,
          };
          // Twice: the second selection reads the groupings the first one left.
          expect(selectPools(indexed, from, to, WETH, cap)).toEqual(expected);
          expect(selectPools(indexed, from, to, WETH, cap)).toEqual(expected);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("after pools are added to and removed from the PoolSet, chooses over the pools it then holds", () => {
    fc.assert(
      fc.property(
        fc.oneof(universe, denseUniverse),
        fc.oneof(universe, denseUniverse),
        fc.array(fc.nat(), { maxLength: 16 }),
        depthTable,
        fc.array(fc.tuple(denseToken, denseToken), { minLength: 1, maxLength: 4 }),
        cap,
        (before, added, removed, table, pairs, cap) => {
          const set = new PoolSet();
          for (const pool of before.map(poolOf)) set.add(pool);
          const source = { poolsOf: (t: Address) => set.of(t), poolCountOf: (t: Address) => set.count(t) };
          for (const [from, to] of pairs) selectPools(source, from, to, WETH, cap);
          const refs = set.refs();
          for (const i of removed) if (refs.length > 0) set.remove(refs[i % refs.length]!);
          for (const pool of added.map(poolOf)) set.add(pool);
          const depthOf = depthsFrom(set.all(), table);
          for (const [from, to] of pairs) {
            const plain = sourceOf([...set.all()]);
            expect(selectPools(source, from, to, WETH, cap)).toEqual(plainWalk(plain, from, to, WETH, cap));
            expect(selectPools({ ...source, depthOf }, from, to, WETH, cap)).toEqual(
              plainWalk({ ...plain, depthOf }, from, to, WETH, cap),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("with depths known, keeps the connectors whose deepest pools are deepest when the cap bites", () => {
    // A→C→B through one deep pool a side; A→D→B through three shallow ones a side (D is better connected).
    const deepC = [v2(A, C), v2(C, B)];
    const shallowD = [v2(A, D), v2(A, D), v2(A, D), v2(D, B), v2(D, B), v2(D, B)];
    const all = [v2(A, B), ...deepC, ...shallowD];
    const depths = new Map(all.map((pool) => [poolRef(pool), deepC.includes(pool) ? 1e24 : 1e21]));
    const depthOf = (pool: IndexedPool) => depths.get(poolRef(pool));
    const byDepth = selectPools({ ...sourceOf(all), depthOf }, A, B, WETH, 3).map(poolRef);
    expect(byDepth).toEqual([all[0]!, ...deepC].map(poolRef));
    // Without depths, the better-connected D comes first.
    const byCount = selectPools(sourceOf(all), A, B, WETH, 3).map(poolRef);
    expect(byCount).toEqual([all[0]!, shallowD[0]!, shallowD[1]!].map(poolRef));
  });
});

/**
 * The priority order written as plainly as possible (every first hop against every last hop, sorting as it
 * goes, taking nothing once the cap is reached): the reference the fast walk must match pool for pool.
 * With depths, the rule of selectPools' doc: connectors by depth share (hub order breaking ties), each
 * connector's pools deepest first, the two deepest WETH↔tokenOut pools for the gas conversion.
 */
function plainWalk(
  source: ReturnType<typeof sourceOf> & { depthOf?: (pool: IndexedPool, side: 0 | 1) => number | undefined },
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
  cap: number,
): IndexedPool[] {
  const key = (token: Address) => assetKey(token, weth);
  const poolsOfAsset = (asset: string) => {
    const pools = source.poolsOf(asset as Address);
    return asset === weth.toLowerCase() ? [...pools, ...source.poolsOf(zeroAddress)] : pools;
  };
  const neighbors = (asset: string) => {
    const byAsset = new Map<string, IndexedPool[]>();
    for (const pool of poolsOfAsset(asset)) {
      if (!isRoutable(pool)) continue;
      const other = key(pool.token0) === asset ? key(pool.token1) : key(pool.token0);
      byAsset.set(other, [...(byAsset.get(other) ?? []), pool]);
    }
    return byAsset;
  };
  const { depthOf } = source;
  const depth = (pool: IndexedPool, asset: string) =>
    depthOf?.(pool, key(pool.token0) === asset ? 0 : 1) ?? 0;
  const held = (pools: IndexedPool[] | undefined, asset: string) =>
    Math.max(0, ...(pools ?? []).map((pool) => depth(pool, asset)));
  const deepest = (pools: IndexedPool[] | undefined, asset: string) =>
    depthOf ? [...(pools ?? [])].sort((x, y) => depth(y, asset) - depth(x, asset)) : pools;
  const byHub = (assets: string[]) =>
    assets.sort((x, y) => poolsOfAsset(y).length - poolsOfAsset(x).length || (x < y ? -1 : 1));
  const byScore = (assets: string[], score: (asset: string) => number) =>
    depthOf ? byHub(assets).sort((x, y) => score(y) - score(x)) : byHub(assets);
  const [a, b, w] = [key(tokenIn), key(tokenOut), weth.toLowerCase()];
  const fromA = neighbors(a);
  const toB = neighbors(b);
  const chosen = new Map<string, IndexedPool>();
  const take = (pools: IndexedPool[] | undefined) => {
    for (const pool of pools ?? []) if (chosen.size < cap) chosen.set(poolRef(pool), pool);
  };
  take(deepest(fromA.get(b), a));
  if (b !== w) take(depthOf ? deepest(toB.get(w), b)!.slice(0, 2) : toB.get(w));
  const twoHop = [...fromA.keys()].filter((m) => m !== b && toB.has(m));
  const maxA = Math.max(0, ...twoHop.map((m) => held(fromA.get(m), a)));
  const maxB = Math.max(0, ...twoHop.map((m) => held(toB.get(m), b)));
  const share = (value: number, max: number) => (max > 0 ? value / max : 0);
  const twoHopScore = (m: string) =>
    Math.min(share(held(fromA.get(m), a), maxA), share(held(toB.get(m), b), maxB));
  for (const m of byScore(twoHop, twoHopScore)) {
    take(deepest(fromA.get(m), a));
    take(deepest(toB.get(m), b));
  }
  const firstHops = byScore(
    [...fromA.keys()].filter((m) => m !== b),
    (m) => held(fromA.get(m), a),
  );
  for (const m1 of firstHops)
    for (const m2 of byScore(
      [...toB.keys()].filter((m) => m !== a && m !== m1),
      (m) => held(toB.get(m), b),
    )) {
      const links = neighbors(m1).get(m2);
      if (!links) continue;
      take(deepest(fromA.get(m1), a));
      take(deepest(links, m1));
      take(deepest(toB.get(m2), b));
    }
  return [...chosen.values()];
}
