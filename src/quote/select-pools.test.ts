import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
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
  return {
    poolsOf: (token: Address) =>
      pools.filter(
        (p) =>
          p.token0.toLowerCase() === token.toLowerCase() || p.token1.toLowerCase() === token.toLowerCase(),
      ),
  };
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
});
