import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../../test/rpc-proxy.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { REGISTRY_EVENTS } from "../../contracts/registry-events.ts";
import type { IndexedPool } from "../pool-index/pool.ts";
import { createPoolIndex, type PoolIndex } from "../pool-index/pool-index.ts";
import { type AdoptionProgress, createFollowedState, IDLE_SAMPLE_EVERY } from "./follow-state.ts";

/**
 * A large index taken in over several steps, and steps whose own work follows the block's events, not the
 * number of pools: the devnet's pools stand in for many, with chunks of 8 pools and no time budget, so each
 * step reads exactly one chunk.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
let index: PoolIndex;
beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
  const client = devnet.publicClient as PublicClient;
  index = createPoolIndex({
    client,
    contracts: devnet.manifest.contracts,
    fromBlock: BigInt(devnet.manifest.deploymentBlock),
  });
  await index.sync();
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});

/** The index's pools, counting each time the follower lists them all. */
function countedPools(): { pools: () => readonly IndexedPool[]; listings: () => number } {
  let listings = 0;
  const listed = index.pools();
  const counted = Object.assign([...listed], {
    [Symbol.iterator]() {
      listings++;
      return listed[Symbol.iterator]();
    },
  });
  return { pools: () => counted, listings: () => listings };
}

describe("followed pool state at scale", () => {
  it("takes a large index in chunk by chunk, saying how far it got, while each block is applied", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" }) as PublicClient;
    const { contracts } = devnet.manifest;
    const progress: AdoptionProgress[] = [];
    const { pools, listings } = countedPools();
    const followed = createFollowedState({
      client,
      pools,
      ...(contracts.v4PoolManager ? { poolManager: contracts.v4PoolManager } : {}),
      watch: { addresses: [contracts.builderRegistry], events: REGISTRY_EVENTS },
      staleAfterMs: 600_000,
      adoptChunk: 8,
      adoptBudgetMs: 0,
      onAdopted: (p) => progress.push(p),
    });
    const first = await followed.step();
    expect(first.kind).toBe("reread");
    expect(followed.followed()).toBeLessThanOrEqual(8);
    const indexed = progress[0]!.indexed;
    expect(indexed).toBeGreaterThan(40);
    expect(progress[0]!.left).toBe(indexed - 8);

    // Blocks keep coming while the rest is taken in: each is applied, and each step reads one chunk more.
    let steps = 1;
    while (progress.at(-1)!.left > 0) {
      await devnet.testClient.mine({ blocks: 1 });
      const outcome = await followed.step();
      expect(outcome.kind).toBe("applied");
      expect(followed.head()!.hash).toBe((await devnet.publicClient.getBlock()).hash);
      steps++;
    }
    expect(steps).toBe(Math.ceil(indexed / 8));
    expect(progress.map((p) => p.left)).toEqual(
      Array.from({ length: steps }, (_, i) => Math.max(0, indexed - 8 * (i + 1))),
    );
    const followedCount = followed.followed();
    expect(followedCount).toBeGreaterThan(indexed - 4);

    // Taken in: a block without pool events lists no pool, reads no pool state beyond the sample, and asks
    // the node for the same few things whatever the number of pools.
    await devnet.testClient.mine({ blocks: 1 });
    await followed.step();
    const listedBefore = listings();
    const calls = proxy.calls.length;
    const idle = Number(IDLE_SAMPLE_EVERY);
    for (let i = 0; i < idle; i++) {
      await devnet.testClient.mine({ blocks: 1 });
      const outcome = await followed.step();
      expect(outcome).toMatchObject({ kind: "applied", blocks: 1, events: 0, adopted: 0 });
    }
    expect(listings()).toBe(listedBefore);
    expect(followed.followed()).toBe(followedCount);
    // Per block: the head, the gas price, and the block's pool and registry logs in one eth_getLogs; one
    // block of the period also samples, in one round of reads (the lens and the PoolManager's slots).
    const asked = proxy.calls.slice(calls);
    const count = (method: string) => asked.filter((m) => m === method).length;
    expect(count("eth_getBlockByNumber")).toBe(idle);
    expect(count("eth_gasPrice")).toBe(idle);
    expect(count("eth_getLogs")).toBe(idle);
    expect(count("eth_call")).toBeGreaterThan(0);
    expect(count("eth_call")).toBeLessThanOrEqual(2);
    expect(asked.length).toBe(3 * idle + count("eth_call"));
    expect(progress.length).toBe(steps);
  }, 120_000);
});
