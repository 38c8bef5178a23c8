import { type Address, numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { type ProxyMode, type RpcProxy, startRpcProxy } from "../../../test/rpc-proxy.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { createStore, type Store } from "../../store/create-store.ts";
import { loadPoolIndex, savePoolIndexSync } from "../../store/repositories/pool-index.ts";
import { createPoolIndex, type PoolIndex } from "./pool-index.ts";

/**
 * The pool index behind a flaky node (docs/rules.md, ours: index rollback): a node that fails, drops the
 * connection or says it lacks the saved tip's block is never taken for a reorg. The index keeps its pools
 * and resumes from the block it saved once the node answers again.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
let store: Store;
beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
  store = await createStore({ dataDir: null });
});
afterAll(async () => {
  await store?.close();
  await proxy?.close();
  await devnet?.dispose();
});

/** The service's index: its chain client, through the proxy, persisted in the database. */
const serviceIndex = () =>
  createPoolIndex({
    client: createChainClient({ url: proxy.url, kind: "private" }),
    contracts: devnet.manifest.contracts,
    fromBlock: 0n,
    logRanges: { initial: 200n, max: 200n, attempts: 1, backoffMs: 0 },
    persistence: {
      load: (sinceVersion) => loadPoolIndex(store.db, sinceVersion),
      save: async (change) => {
        await savePoolIndexSync(store.db, change);
      },
    },
    onPersistError: (error) => {
      throw error;
    },
  });

/** The token held by the most pools, and how many. */
function busiestToken(index: PoolIndex): { token: Address; pools: number } {
  const tokens = index.pools().flatMap((pool) => [pool.token0, pool.token1]);
  const token = tokens.reduce((best, t) => (index.poolsOf(t).length > index.poolsOf(best).length ? t : best));
  return { token, pools: index.poolsOf(token).length };
}

/** A node that says it has no block at `number` (a lagging node), while answering everything else. */
const lacksBlock = (number: bigint): ProxyMode => ({
  kind: "rewrite",
  rewrite: (method, params, result) =>
    method === "eth_getBlockByNumber" && params[0] === numberToHex(number) ? null : result,
});

/** A node that fails (503) reading the block at `number` only: the head is read, the tip is not. */
const failsBlock = (number: bigint): ProxyMode => ({
  kind: "refuse",
  refuse: (method, params) =>
    method === "eth_getBlockByNumber" && params[0] === numberToHex(number) ? { status: 503 } : undefined,
});

describe("pool index behind a failing node", () => {
  it.each<[string, (tip: bigint) => ProxyMode]>([
    ["a 503", () => ({ kind: "http-error", status: 503 })],
    ["a dropped connection", () => ({ kind: "cut" })],
    ["a node internal error", () => ({ kind: "rpc-error", code: -32603 })],
    ["a failed read of the saved tip's block", (tip) => failsBlock(tip)],
    ["no block at the saved tip", lacksBlock],
  ])(
    "keeps every pool through %s and resumes from the saved tip, not from the first block",
    async (_, fault) => {
      proxy.mode = { kind: "pass" };
      const index = serviceIndex();
      await index.sync();
      const tip = index.syncedTo()!;
      const { token, pools } = busiestToken(index);
      expect(pools).toBeGreaterThan(1);

      proxy.mode = fault(tip.number);
      await expect(index.sync()).rejects.toThrow();
      await expect(index.sync()).rejects.toThrow();
      expect(index.poolsOf(token)).toHaveLength(pools);
      expect(index.syncedTo()).toEqual(tip);
      // What the readers load is untouched too.
      expect((await loadPoolIndex(store.db))!.pools.length).toBe(index.pools().length);

      // A restart during the outage keeps the saved index as well.
      const restarted = serviceIndex();
      await expect(restarted.sync()).rejects.toThrow();
      expect(restarted.poolsOf(token)).toHaveLength(pools);

      proxy.mode = { kind: "pass" };
      await devnet.testClient.mine({ blocks: 2 });
      for (const resumed of [index, restarted]) {
        const next = await resumed.sync();
        expect(next).toMatchObject({ from: tip.number + 1n, reorg: false, rolledBack: 0 });
        expect(resumed.poolsOf(token)).toHaveLength(pools);
      }
    },
  );
});
