import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createChainClient } from "./create-chain-client.ts";
import { countRpc } from "./rpc-tally.ts";

/**
 * A quote's own count of what it asked of the node, against what a proxy in front of the node received:
 * every call and HTTP request the quote sent and nothing the background sent; calls made together travel
 * as one JSON-RPC batch.
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

describe("countRpc", () => {
  it("counts each call and request a quote sends, as the node receives them, and its round trips", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" });
    const contracts = devnet.manifest.contracts;
    const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
    await index.sync();
    const quote = createQuoter({ client, index, contracts, fixtures: createFixtures(client) });
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    for (const amountIn of [parseEther("1"), parseEther("400")]) {
      const before = { calls: proxy.calls.length, requests: proxy.requests };
      const result = await quote(
        { tokenIn: contracts.weth9, tokenOut: usdc, amountIn },
        new AbortController().signal,
      );
      expect(result.rpc.calls).toBe(proxy.calls.length - before.calls);
      expect(result.rpc.requests).toBe(proxy.requests - before.requests);
      // Batched: fewer HTTP requests than calls, and never more requests than round trips.
      expect(result.rpc.requests).toBeLessThan(result.rpc.calls);
      expect(result.rpc.roundTrips).toBeGreaterThanOrEqual(1);
      expect(result.rpc.requests).toBe(result.rpc.roundTrips);
      // The simulation is one request per candidate, never eth_estimateGas.
      expect(proxy.calls.slice(before.calls)).not.toContain("eth_estimateGas");
    }
    // Work outside a counted unit is not counted; two counted units in parallel count their calls apart
    // (a batch both joined is one request, counted for whichever opened it).
    const sent = proxy.requests;
    const [one, two] = await Promise.all([
      countRpc(() => client.getBlockNumber()),
      countRpc(async () => {
        await client.getChainId();
        await client.getGasPrice();
      }),
    ]);
    expect([one.rpc.calls, one.rpc.roundTrips, two.rpc.calls, two.rpc.roundTrips]).toEqual([1, 1, 2, 2]);
    // Each round trip is named by the call that opened it: what the work waited on, in order.
    expect(one.rpc.openedBy).toEqual(["eth_blockNumber"]);
    expect(two.rpc.openedBy).toEqual(["eth_chainId", "eth_gasPrice"]);
    expect(one.rpc.requests + two.rpc.requests).toBe(proxy.requests - sent);
    // Two calls in the same turn: one batch, one request, one round trip.
    const both = await countRpc(() => Promise.all([client.getChainId(), client.getGasPrice()]));
    expect(both.rpc).toEqual({ calls: 2, requests: 1, roundTrips: 1, openedBy: ["eth_chainId"] });
  });
});
