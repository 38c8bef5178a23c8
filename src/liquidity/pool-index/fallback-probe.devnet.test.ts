import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { v4PoolId } from "../v4/pool-key.ts";
import { fallbackV4Keys, probeV4Keys } from "./fallback-probe.ts";

/** The fallback V4 probe (docs/rules.md, comparison rule 11) against the devnet's PoolManager. */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

describe("fallback V4 probe", () => {
  it("probes at most 28 common hook-free keys, native alternatives included, and finds the live ones (rule 11)", async () => {
    const { contracts, pools } = devnet.manifest;
    const [weth, usdc] = [contracts.weth9, token("USDC")];
    const keys = fallbackV4Keys(weth, usdc, weth);
    expect(keys).toHaveLength(28);
    expect(keys.every((k) => k.hooks === zeroAddress)).toBe(true);
    expect(keys.filter((k) => k.currency0 === zeroAddress)).toHaveLength(14);
    expect(fallbackV4Keys(token("LINK"), usdc, weth)).toHaveLength(14);

    const found = await probeV4Keys(
      devnet.publicClient,
      contracts.v4PoolManager,
      keys,
      await devnet.publicClient.getBlockNumber(),
    );
    const expected = pools.filter(
      (p) => p.kind === "v4" && p.routable && keys.some((k) => v4PoolId(k) === p.poolId.toLowerCase()),
    );
    expect(found.map((f) => f.poolId).sort()).toEqual(
      expected.map((p) => (p as { poolId: string }).poolId.toLowerCase()).sort(),
    );
    expect(found.length).toBeGreaterThanOrEqual(3);
  });
});
