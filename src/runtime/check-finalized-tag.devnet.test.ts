import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { finalizedTagWarning } from "./check-finalized-tag.ts";

/** A node without the `finalized` tag: the devnet behind a proxy that refuses it as such nodes do. */
let devnet: TestDevnet;
let proxy: RpcProxy;
beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
  proxy.mode = {
    kind: "refuse",
    refuse: (method, params) =>
      method === "eth_getBlockByNumber" && params[0] === "finalized"
        ? { code: -32602, message: "unknown block tag finalized" }
        : undefined,
  };
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});

describe("a node that cannot answer `finalized`", () => {
  it("is reported at start while JUNCTION_FINALITY_CONFIRMATIONS is unset", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" });
    expect(await finalizedTagWarning(client, undefined)).toMatch(/set JUNCTION_FINALITY_CONFIRMATIONS/);
    expect(await finalizedTagWarning(devnet.publicClient as never, undefined)).toBeUndefined();
  });

  it("gets its finalized head from confirmations instead: latest − N", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" }, { finalityConfirmations: 3 });
    expect(await finalizedTagWarning(client, 3)).toBeUndefined();
    await devnet.testClient.mine({ blocks: 5 });
    const latest = await devnet.publicClient.getBlockNumber();
    const head = await client.getBlock({ blockTag: "finalized" });
    expect(head.number).toBe(latest - 3n);
    expect(head.hash).toBe((await devnet.publicClient.getBlock({ blockNumber: latest - 3n })).hash);
  });
});
