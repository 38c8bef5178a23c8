import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../../test/rpc-proxy.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { createQuoter } from "../../quote/create-quoter.ts";
import { createFixtures } from "../../simulation/fixtures.ts";
import { createPoolIndex } from "../pool-index/pool-index.ts";
import { createFollowedState } from "./follow-state.ts";

/**
 * Followed pool state in front of a failing or slow node (the fault-injecting proxy): it never offers a
 * block it has not confirmed recently, and quotes then pin and read as without it.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});

const STALE_MS = 3_000;

describe("followed state against a failing node", () => {
  it("stops offering its block once the node fails or lags, and quotes fall back to reads", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" }) as PublicClient;
    const { contracts } = devnet.manifest;
    const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
    await index.sync();
    let clock = 1_000_000;
    const followed = createFollowedState({
      client,
      pools: () => index.pools(),
      ...(contracts.v4PoolManager ? { poolManager: contracts.v4PoolManager } : {}),
      staleAfterMs: STALE_MS,
      now: () => clock,
    });
    await followed.step();
    const fresh = followed.quoteBlock();
    expect(fresh?.block.hash).toBe(followed.head()!.hash);

    // The node fails: the step fails, the state is kept but offered only until it is stale.
    proxy.mode = { kind: "http-error", status: 503 };
    await expect(followed.step()).rejects.toThrow();
    expect(followed.quoteBlock()?.block.hash).toBe(fresh!.block.hash);
    clock += STALE_MS + 1;
    expect(followed.quoteBlock()).toBeUndefined();

    // A quote then pins and reads, and with the node down it fails as upstream unavailable: never stale state.
    const quote = createQuoter({ client, index, contracts, fixtures: createFixtures(client), followed });
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const request = { tokenIn: contracts.weth9, tokenOut: usdc, amountIn: 10n ** 18n };
    await expect(quote(request, new AbortController().signal)).rejects.toMatchObject({
      name: "UpstreamUnavailableError",
    });

    // The node answers heads but refuses logs: the state stays at its block, offered while one block behind,
    // withdrawn when two are.
    proxy.mode = {
      kind: "refuse",
      refuse: (method) => (method === "eth_getLogs" ? { status: 502 } : undefined),
    };
    await devnet.testClient.mine({ blocks: 1 });
    await expect(followed.step()).rejects.toThrow();
    expect(followed.quoteBlock()?.block.hash).toBe(fresh!.block.hash);
    await devnet.testClient.mine({ blocks: 1 });
    await expect(followed.step()).rejects.toThrow();
    expect(followed.quoteBlock()).toBeUndefined();
    const calls = proxy.calls.length;
    const pinned = await quote(request, new AbortController().signal);
    expect(pinned.block.number).toBe(await devnet.publicClient.getBlockNumber());
    expect(proxy.calls.slice(calls)).toContain("eth_getBlockByNumber");

    // A slow node whose answers arrive after the state went stale is not trusted for them either.
    proxy.mode = { kind: "pass" };
    await followed.step();
    expect(followed.quoteBlock()?.block.number).toBe(pinned.block.number);
    proxy.mode = { kind: "delay", ms: 300 };
    const step = followed.step();
    clock += STALE_MS + 1;
    expect(followed.quoteBlock()).toBeUndefined();
    await step;
    expect(followed.quoteBlock()?.block.number).toBe(pinned.block.number);
  });
});
