import { setTimeout as sleep } from "node:timers/promises";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { uniswapV3FactoryAbi } from "../contracts/abis/UniswapV3Factory.ts";
import { createFollowedState } from "../liquidity/followed-state/follow-state.ts";
import { createPoolIndex, DISCOVERY_EVENTS, type PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { loadPoolIndex, savePoolIndexSync } from "../store/repositories/pool-index.ts";
import { indexAtStart } from "./first-index.ts";
import { headTasks } from "./head-tasks.ts";
import { createIndexFreshness, type IndexFreshness, isIndexStale } from "./index-freshness.ts";
import { createIndexerRole, type IndexerRole } from "./indexer-role.ts";

/**
 * Two processes sharing one database, each with its own link to the node through a proxy, wired as
 * start-service.ts wires them (a short lease and follow interval): cutting the indexer's link hands the
 * role to the other within a few lease periods, and the new pool the cut indexer cannot see appears.
 */
const TTL_MS = 1_500;
const FOLLOW_MS = 200;
/** Far beyond the few lease periods a takeover needs; only a stuck role reaches it. */
const GIVE_UP_MS = 60_000;

let devnet: TestDevnet;
let store: Store;
beforeAll(async () => {
  devnet = await startTestDevnet();
  store = await createStore({ dataDir: null });
});
afterAll(async () => {
  await store?.close();
  await devnet?.dispose();
});

type Host = {
  proxy: RpcProxy;
  index: PoolIndex;
  role: IndexerRole;
  freshness: IndexFreshness;
  stop: () => Promise<void>;
};

async function startHost(name: string, events: string[]): Promise<Host> {
  const proxy = await startRpcProxy(devnet.rpcUrl);
  const client = createChainClient({ url: proxy.url, kind: "private" });
  const freshness = createIndexFreshness();
  const index = createPoolIndex({
    client,
    contracts: devnet.manifest.contracts,
    fromBlock: 0n,
    persistence: {
      load: (sinceVersion) => loadPoolIndex(store.db, sinceVersion),
      save: async (change) => {
        await savePoolIndexSync(store.db, change);
      },
    },
    onScanned: () => freshness.progressed(Date.now()),
  });
  const role = createIndexerRole({
    db: store.db,
    holder: name,
    ttlMs: TTL_MS,
    progress: freshness,
    onChange: (isIndexer) =>
      events.push(`${name}:${isIndexer ? "indexer" : "reader"} (lag ${freshness.lagBlocks()})`),
  });
  const readHead = () => client.getBlockNumber();
  await indexAtStart({ index, role, freshness, readHead }, () => {});
  // The head follower drives the index as in the service (follow-pools.ts), without the other tasks.
  const tasks = headTasks({
    index,
    isIndexer: role.isIndexer,
    freshness,
    activations: { scan: async () => {} },
    settlements: { sync: async () => ({ to: 0n }) },
    recorders: [devnet.manifest.contracts.settlementCollector],
    onIndexError: () => {},
    onSettlementError: () => {},
  });
  const followed = createFollowedState({
    client,
    pools: () => index.pools(),
    staleAfterMs: FOLLOW_MS * 3,
    observe: { events: DISCOVERY_EVENTS, onBlocks: tasks.onBlocks },
  });
  const follower = followed.start({ pollMs: FOLLOW_MS, onError: () => {} });
  return {
    proxy,
    index,
    role,
    freshness,
    stop: async () => {
      await follower.stop();
      await tasks.stop();
      await role.release();
      await proxy.close();
    },
  };
}

/** Two tokens and a standard V3 fee with no pool yet. */
function unusedV3Pool(index: PoolIndex): [Address, Address, number] {
  const tokens = devnet.manifest.tokens.map((t) => t.address as Address);
  for (const a of tokens)
    for (const b of tokens)
      for (const fee of [500, 3000, 10000])
        if (a !== b && !index.poolsForPair(a, b).some((p) => p.kind === "v3" && p.fee === fee))
          return [a, b, fee];
  throw new Error("every V3 pool exists");
}

async function until(what: string, done: () => boolean) {
  const deadline = Date.now() + GIVE_UP_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await sleep(50);
  }
}

describe("indexer takeover", () => {
  it("hands the role to a process whose node answers when the indexer's link is cut", async () => {
    const events: string[] = [];
    const a = await startHost("a", events);
    const b = await startHost("b", events);
    try {
      expect([a.role.isIndexer(), b.role.isIndexer()]).toEqual([true, false]);

      a.proxy.mode = { kind: "cut" };
      const [token0, token1, fee] = unusedV3Pool(a.index);
      const wallet = devnet.wallet(8);
      const hash = await wallet.writeContract({
        account: wallet.account!,
        chain: wallet.chain,
        address: devnet.manifest.contracts.v3Factory,
        abi: uniswapV3FactoryAbi,
        functionName: "createPool",
        args: [token0, token1, fee],
      });
      const created = await devnet.publicClient.waitForTransactionReceipt({ hash });
      const newPool = () => b.index.poolsOf(token0).some((p) => p.discovery.block === created.blockNumber);

      await until("b indexes the new pool", newPool);
      // a gave up first; b, which saw its index fall behind the head, took over.
      expect(events).toEqual([
        expect.stringMatching(/^a:indexer/),
        expect.stringMatching(/^a:reader/),
        expect.stringMatching(/^b:indexer \(lag [1-9]/),
      ]);
      expect(isIndexStale(b.freshness, Date.now())).toBe(false);
      // a gave up once it had not advanced for a lease's life: its index is that old against its head.
      expect(isIndexStale(a.freshness, Date.now(), TTL_MS - 1)).toBe(true);

      // a's node is back: it reads b's saved index, and leaves the role to b.
      a.proxy.mode = { kind: "pass" };
      await until("a reads the new pool", () =>
        a.index.poolsOf(token0).some((p) => p.discovery.block === created.blockNumber),
      );
      await sleep(TTL_MS);
      expect([a.role.isIndexer(), b.role.isIndexer()]).toEqual([false, true]);
      expect(events).toHaveLength(3);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("lets a lone indexer that gave the role up claim it again once its node answers", async () => {
    const events: string[] = [];
    const solo = await startHost("solo", events);
    try {
      solo.proxy.mode = { kind: "cut" };
      await until("solo gives the role up", () => !solo.role.isIndexer());
      await devnet.testClient.mine({ blocks: 3 });
      const head = await devnet.publicClient.getBlockNumber();
      solo.proxy.mode = { kind: "pass" };
      await until("solo indexes the head again", () => (solo.index.syncedTo()?.number ?? 0n) >= head);
      expect(events.map((event) => event.split(" ")[0])).toEqual([
        "solo:indexer",
        "solo:reader",
        "solo:indexer",
      ]);
    } finally {
      await solo.stop();
    }
  });
});
