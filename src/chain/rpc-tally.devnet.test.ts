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
 * every request the quote sent and nothing the background sent.
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
  it("counts each request a quote sends, as the node receives them, and its round trips", async () => {
    const client = createChainClient({ url: proxy.url, kind: "private" });
    const contracts = devnet.manifest.contracts;
    const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
    await index.sync();
    const quote = createQuoter({ client, index, contracts, fixtures: createFixtures(client) });
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    for (const amountIn of [parseEther("1"), parseEther("400")]) {
      const before = proxy.calls.length;
      const result = await quote(
        { tokenIn: contracts.weth9, tokenOut: usdc, amountIn },
        new AbortController().signal,
      );
      expect(result.rpc.requests).toBe(proxy.calls.length - before);
      expect(result.rpc.roundTrips).toBeGreaterThanOrEqual(1);
      expect(result.rpc.roundTrips).toBeLessThanOrEqual(result.rpc.requests);
      // The simulation is one request per candidate, never eth_estimateGas.
      expect(proxy.calls.slice(before)).not.toContain("eth_estimateGas");
    }
    // Work outside a counted unit is not counted; two counted units in parallel count apart.
    const [one, two] = await Promise.all([
      countRpc(() => client.getBlockNumber()),
      countRpc(async () => {
        await client.getChainId();
        await client.getGasPrice();
      }),
    ]);
    expect(one.rpc).toEqual({ requests: 1, roundTrips: 1 });
    expect(two.rpc).toEqual({ requests: 2, roundTrips: 2 });
  });
});
