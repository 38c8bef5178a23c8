import fc from "fast-check";
import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { type IndexedPool, isRoutable, poolRef } from "../liquidity/pool-index/pool.ts";
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
    const tokens = [A, B, C, D, WETH, zeroAddress, ...Array.from({ length: 10 }, (_, i) => addr(0x20 + i))];
    const universe = fc.array(
      fc
        .tuple(fc.constantFrom(...tokens), fc.constantFrom(...tokens), fc.boolean())
        .filter(([x, y]) => x !== y),
      { maxLength: 48 },
    );
    fc.assert(
      fc.property(
        universe,
        fc.constantFrom(...tokens),
        fc.constantFrom(...tokens),
        fc.integer({ min: 1, max: 16 }),
        (edges, from, to, cap) => {
          const all = edges.map(([x, y, hooks]) => (hooks ? hooked(x, y) : v2(x, y)));
          const source = sourceOf(all);
          expect(selectPools(source, from, to, WETH, cap)).toEqual(plainWalk(source, from, to, WETH, cap));
        },
      ),
      { numRuns: 1_000 },
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
 */
function plainWalk(
  source: ReturnType<typeof sourceOf>,
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
  const byHub = (assets: string[]) =>
    assets.sort((x, y) => poolsOfAsset(y).length - poolsOfAsset(x).length || (x < y ? -1 : 1));
  const [a, b, w] = [key(tokenIn), key(tokenOut), weth.toLowerCase()];
  const fromA = neighbors(a);
  const toB = neighbors(b);
  const chosen = new Map<string, IndexedPool>();
  const take = (pools: IndexedPool[] | undefined) => {
    for (const pool of pools ?? []) if (chosen.size < cap) chosen.set(poolRef(pool), pool);
  };
  take(fromA.get(b));
  if (b !== w) take(toB.get(w));
  for (const m of byHub([...fromA.keys()].filter((m) => m !== b && toB.has(m)))) {
    take(fromA.get(m));
    take(toB.get(m));
  }
  for (const m1 of byHub([...fromA.keys()].filter((m) => m !== b)))
    for (const m2 of byHub([...toB.keys()].filter((m) => m !== a && m !== m1))) {
      const links = neighbors(m1).get(m2);
      if (!links) continue;
      take(fromA.get(m1));
      take(links);
      take(toB.get(m2));
    }
  return [...chosen.values()];
}
