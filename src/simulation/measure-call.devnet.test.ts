import {
  createPublicClient,
  erc20Abi,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { junctionChain } from "../chain/chain.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import { buildExecutableQuote, expectedDelivery } from "../quote/executable-quote.ts";
import type { QuoteRequest } from "../quote/quote-types.ts";
import { createFixtures } from "./fixtures.ts";
import { measureCall } from "./measure-call.ts";

/**
 * Gas measured in the simulating call against the receipts of the same transactions sent from a funded
 * wallet: the node's own figure from `eth_simulateV1`, an upper bound (before refunds) from the probe.
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

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);

describe("measureCall", () => {
  it("reports the gas a receipt shows (eth_simulateV1), and an upper bound from the probe", async () => {
    const client = devnet.publicClient as unknown as PublicClient;
    // The same node behind a proxy that has no eth_simulateV1, as some node software does not.
    const withoutSimulate = createPublicClient({
      chain: junctionChain(proxy.url),
      transport: http(proxy.url),
      cacheTime: 0,
    }) as PublicClient;
    proxy.mode = {
      kind: "refuse",
      refuse: (method) =>
        method === "eth_simulateV1" ? { code: -32601, message: "the method does not exist" } : undefined,
    };
    const contracts = devnet.manifest.contracts;
    const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
    const fixtures = createFixtures(client);
    const quoter = createQuoter({ client, index, contracts, fixtures });
    const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
    const wallet = devnet.wallet(3);
    // Paid to another account, as a partner's or builder's user usually is (a sender is warm from the start).
    const recipient = devnet.wallet(4).account!.address;
    const trades: QuoteRequest[] = [
      { tokenIn: zeroAddress, tokenOut: token("USDC"), amountIn: parseEther("20") },
      { tokenIn: token("USDC"), tokenOut: zeroAddress, amountIn: parseUnits("20000", 6) },
      { tokenIn: token("USDC"), tokenOut: token("DAI"), amountIn: parseUnits("15000", 6) },
      // Quoted at the block of the one before, through the same pools: a V3 pool writes its oracle
      // observation once per block, so the run must be in the block after the quote block, as the sent
      // transaction is, not in a block that shares the quote block's time (where the write is made).
      { tokenIn: token("USDC"), tokenOut: token("DAI"), amountIn: parseUnits("14000", 6) },
    ];
    for (const trade of trades) {
      const result = await quoter(trade, new AbortController().signal);
      const built = await buildExecutableQuote({ client, contracts, fixtures }, result, {
        recipient,
        minOut: (expectedDelivery(result) * 99n) / 100n,
        // The snapshot's blocks may be older than the wall clock that stamps the next one.
        deadline: maxOf(result.block.timestamp, BigInt(Math.floor(Date.now() / 1000))) + 3600n,
      });
      expect(built.ok).toBe(true);
      if (!built.ok) return;
      const fixture = await fixtures({
        tokenIn: trade.tokenIn,
        amountIn: trade.amountIn,
        spender: built.tx.to,
        blockNumber: result.block.number,
      });
      if (fixture.status !== "ready") throw new Error("no fixture");
      const request = {
        tx: built.tx,
        caller: fixture.caller,
        stateOverride: fixture.stateOverride,
        blockNumber: result.block.number,
        blockTimestamp: result.block.timestamp,
        gasPrice: result.gasPrice,
      };
      const simulated = await measureCall(client, request);
      const probed = await measureCall(withoutSimulate, request);
      expect([simulated.by, probed.by]).toEqual(["eth_simulateV1", "probe"]);

      if (trade.tokenIn !== zeroAddress) {
        const approval = await wallet.writeContract({
          address: trade.tokenIn,
          abi: erc20Abi,
          functionName: "approve",
          args: [built.tx.to, trade.amountIn],
          chain: null,
          account: wallet.account!,
        });
        await devnet.publicClient.waitForTransactionReceipt({ hash: approval });
      }
      // As on a live chain, the swap's block is later in time than every block before it (anvil may
      // otherwise give blocks mined within one second the same time, and per-block writes, an oracle's
      // observation or a V2 pair's cumulative prices, would then be skipped).
      await devnet.testClient.increaseTime({ seconds: 1 });
      const hash = await wallet.sendTransaction({
        ...built.tx,
        gas: probed.gasUsed + 50_000n,
        chain: null,
        account: wallet.account!,
      });
      const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      // The node's own figure, exactly: the synthetic caller keeps a remainder of its input, as this wallet
      // does, so neither empties a balance slot (a 4,800-gas refund).
      expect(simulated.gasUsed, `${trade.tokenIn}->${trade.tokenOut}`).toBe(receipt.gasUsed);
      // Before refunds, as eth_estimateGas: never below what the transaction used.
      expect(probed.gasUsed).toBeGreaterThanOrEqual(receipt.gasUsed);
      expect(proxy.calls).not.toContain("eth_estimateGas");
    }
  });
});
