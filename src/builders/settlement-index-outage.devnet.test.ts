import { numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { createSettlementIndex } from "./settlement-index.ts";
import { settlementSources } from "./settlement-logs.ts";

/**
 * The settlement index behind a node that fails to answer its saved block (docs/rules.md, ours: index
 * rollback): the sync fails and the index is kept, never started over as if a reorg had replaced it.
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

describe("settlement index behind a failing node", () => {
  it("keeps its block through a failed read or a missing block, and resumes after it", async () => {
    const index = createSettlementIndex({
      client: createChainClient({ url: proxy.url, kind: "private" }),
      db: store.db,
      sources: settlementSources(devnet.manifest.contracts),
      deploymentBlock: BigInt(devnet.manifest.deploymentBlock),
    });
    await devnet.testClient.mine({ blocks: 3 });
    await index.sync();
    const covered = (await index.coverage())!;
    await devnet.testClient.mine({ blocks: 3 });

    const saved = numberToHex(covered.through);
    const isSaved = (method: string, params: unknown[]) =>
      method === "eth_getBlockByNumber" && params[0] === saved;
    proxy.mode = {
      kind: "refuse",
      refuse: (method, params) => (isSaved(method, params) ? { status: 503 } : undefined),
    };
    await expect(index.sync()).rejects.toThrow();
    proxy.mode = {
      kind: "rewrite",
      rewrite: (method, params, result) => (isSaved(method, params) ? null : result),
    };
    await expect(index.sync()).rejects.toThrow();
    expect(await index.coverage()).toEqual(covered);

    proxy.mode = { kind: "pass" };
    expect(await index.sync()).toMatchObject({ from: covered.through + 1n, reset: false });
  });
});
