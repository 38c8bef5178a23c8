import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { junctionChain } from "../../chain/chain.ts";
import type { ManifestPool } from "../../devnet/manifest.ts";
import { poolRef } from "../pool-index/pool.ts";
import { countRequests } from "./count-requests.ts";
import { extendPoolStates, loadPoolStates, type PoolRef } from "./load-pool-states.ts";
import { StateHints } from "./state-hints.ts";
import { WIDENED_WINDOW_TICKS } from "./word-window.ts";

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

function counted() {
  const { transport, counts } = countRequests(http(devnet.rpcUrl));
  return {
    client: createPublicClient({ chain: junctionChain(devnet.rpcUrl), transport, cacheTime: 0 }),
    counts,
  };
}

const refs = (pools: readonly ManifestPool[]): PoolRef[] => pools.filter((p) => p.routable) as PoolRef[];

describe("loadPoolStates", () => {
  it("loads every routable pool of every kind in three round trips at the pinned block", async () => {
    const { client, counts } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const pools = refs(devnet.manifest.pools);
    const { pools: loads, stats } = await loadPoolStates(client, pools, {
      blockNumber,
      v4PoolManager: devnet.manifest.contracts.v4PoolManager,
    });
    expect(loads.every((load) => load.status === "loaded")).toBe(true);
    expect(stats.roundTrips).toBe(3);
    expect(counts.byMethod.get("eth_call")).toBe(stats.requests);
    expect(counts.total).toBe(stats.requests);
    for (const load of loads) {
      if (load.status !== "loaded") continue;
      expect(load.snapshot.blockNumber).toBe(blockNumber);
      if (load.snapshot.kind === "v2") expect(load.snapshot.reserve0).toBeGreaterThan(0n);
      else {
        expect(load.snapshot.liquidity).toBeGreaterThan(0n);
        expect(load.snapshot.liquidityNet.size).toBeGreaterThan(0);
      }
    }
  });

  it("loads in one round trip when earlier snapshots are given as hints and nothing moved", async () => {
    const { client } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const pools = refs(devnet.manifest.pools).filter((p) => p.kind !== "v2");
    const options = { blockNumber, v4PoolManager: devnet.manifest.contracts.v4PoolManager };
    const first = await loadPoolStates(client, pools, options);
    const hints = new StateHints();
    hints.record(first.pools);
    const second = await loadPoolStates(client, pools, { ...options, hints: hints.map });
    expect(second.stats.roundTrips).toBe(1);
    expect(second.pools).toEqual(first.pools);
  });

  it("loads in two round trips when only each pool's tick is known (e.g. from the pool index)", async () => {
    const { client } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const pools = refs(devnet.manifest.pools);
    const options = { blockNumber, v4PoolManager: devnet.manifest.contracts.v4PoolManager };
    const cold = await loadPoolStates(client, pools, options);
    // A tick a few hundred ticks off: the window still covers the price, and slot0 corrects it.
    const hints = new Map(
      cold.pools.flatMap((load) =>
        load.status === "loaded" && load.snapshot.kind !== "v2"
          ? [[poolRef(load.snapshot), { tick: load.snapshot.tick + 300 }]]
          : [],
      ),
    );
    const hinted = await loadPoolStates(client, pools, { ...options, hints });
    expect(hinted.stats.roundTrips).toBe(2);
    expect(hinted.pools).toEqual(cold.pools);
  });

  it("fails only the pools it cannot price: no contract, an uninitialized V4 id, a hooked V4 pool", async () => {
    const { client } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const good = refs(devnet.manifest.pools).slice(0, 3);
    const hooked = devnet.manifest.pools.find((p) => p.kind === "v4" && !p.routable)!;
    const noCode = {
      kind: "v3",
      address: "0x000000000000000000000000000000000000dEaD",
      fee: 3000,
      tickSpacing: 60,
    } as const;
    const uninitialized = {
      kind: "v4",
      poolId: `0x${"11".repeat(32)}`,
      key: {
        currency0: "0x0000000000000000000000000000000000000001",
        currency1: "0x0000000000000000000000000000000000000002",
        fee: 3000,
        tickSpacing: 60,
        hooks: "0x0000000000000000000000000000000000000000",
      },
    } as const;
    const { pools } = await loadPoolStates(client, [...good, noCode, uninitialized, hooked as PoolRef], {
      blockNumber,
      v4PoolManager: devnet.manifest.contracts.v4PoolManager,
    });
    expect(pools.slice(0, 3).map((p) => p.status)).toEqual(["loaded", "loaded", "loaded"]);
    expect(pools.slice(3).map((p) => p.status === "failed" && p.reason)).toEqual([
      "unreadable",
      "notInitialized",
      "unsupported",
    ]);
  });

  it("extends a snapshot's window to a missing word in two round trips", async () => {
    const { client } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const pool = refs(devnet.manifest.pools).find((p) => p.kind === "v3" && p.tickSpacing === 1)!;
    const options = { blockNumber, v4PoolManager: devnet.manifest.contracts.v4PoolManager };
    const [load] = (await loadPoolStates(client, [pool], options)).pools;
    if (load?.status !== "loaded" || load.snapshot.kind !== "v3") throw new Error("no V3 snapshot");
    const snapshot = load.snapshot;
    const missing = { kind: "bitmapWord", wordPos: snapshot.bitmap.from - 1 } as const;
    const extended = await extendPoolStates(client, [{ snapshot, missing }], options);
    expect(extended.stats.roundTrips).toBeLessThanOrEqual(2);
    const [result] = extended.pools;
    if (result?.status !== "loaded" || result.snapshot.kind !== "v3") throw new Error("not extended");
    expect(result.snapshot.bitmap.from).toBeLessThan(snapshot.bitmap.from);
    expect(result.snapshot.bitmap.to).toBe(snapshot.bitmap.to);
    expect(result.snapshot.sqrtPriceX96).toBe(snapshot.sqrtPriceX96);
  });

  it("widens in one round trip when an earlier widening's ticks are given as hints", async () => {
    const { client } = counted();
    const blockNumber = await devnet.publicClient.getBlockNumber();
    const options = { blockNumber, v4PoolManager: devnet.manifest.contracts.v4PoolManager };
    const pools = refs(devnet.manifest.pools).filter((p) => p.kind !== "v2");
    const requests = (await loadPoolStates(client, pools, options)).pools.flatMap((load) =>
      load.status === "loaded" && load.snapshot.kind !== "v2"
        ? [
            {
              snapshot: load.snapshot,
              missing: { kind: "bitmapWord", wordPos: load.snapshot.bitmap.to + 1 } as const,
            },
          ]
        : [],
    );
    const wide = { ...options, windowTicks: WIDENED_WINDOW_TICKS };
    const first = await extendPoolStates(client, requests, wide);
    // Some pool has initialized ticks in its wider window that its first window did not hold.
    expect(
      first.pools.some(
        (load, i) =>
          load.status === "loaded" &&
          load.snapshot.kind !== "v2" &&
          load.snapshot.liquidityNet.size > requests[i]!.snapshot.liquidityNet.size,
      ),
    ).toBe(true);
    expect(first.stats.roundTrips).toBe(2);
    const hints = new StateHints();
    hints.record(first.pools);
    const second = await extendPoolStates(client, requests, { ...wide, hints: hints.map });
    expect(second.stats.roundTrips).toBe(1);
    expect(second.pools).toEqual(first.pools);
  });
});
