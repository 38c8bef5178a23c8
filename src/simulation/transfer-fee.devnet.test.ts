import { type Address, createPublicClient, erc20Abi, http, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { rebaseShares } from "../../test/rebase.ts";
import { junctionChain } from "../chain/chain.ts";
import { TRANSFER_FEE_BPS } from "../devnet/universe.ts";
import { createFixtures } from "./fixtures.ts";
import { createTransferFeeMeter, TRANSFER_FEE_HOLDER, TRANSFER_FEE_RECIPIENT } from "./transfer-fee.ts";

/**
 * Transfer fees simulated against the devnet's real tokens: the fee-on-transfer token's configured tax to
 * the wei, plain tokens of every storage layout 0, many tokens in one `eth_call` once their balance slots
 * are known, nothing written to the chain, and a rebased token unknown (with its reason) rather than
 * guessed.
 */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

/** A client on the devnet that counts the JSON-RPC methods it sends. */
function countingClient() {
  const methods: string[] = [];
  const client = createPublicClient({
    chain: junctionChain(devnet.rpcUrl),
    transport: http(devnet.rpcUrl, {
      onFetchRequest: async (request) => {
        const body = JSON.parse(await request.clone().text()) as { method: string } | { method: string }[];
        for (const call of Array.isArray(body) ? body : [body]) methods.push(call.method);
      },
    }),
    cacheTime: 0,
  });
  return { client, methods };
}

describe("transfer fee meter", () => {
  it("measures the fee-on-transfer token's configured tax exactly and plain tokens of every layout at 0", async () => {
    const measure = createTransferFeeMeter(devnet.publicClient);
    const block = await devnet.publicClient.getBlockNumber();
    const amount = parseEther("1");
    const [taxed, ...plain] = await measure(
      ["TAX", "USDC", "WBTC", "SOLA", "NSPC"].map((symbol) => ({ token: token(symbol), amount })),
      block,
    );
    expect(taxed).toEqual({
      status: "measured",
      bps: TRANSFER_FEE_BPS,
      sent: amount,
      received: amount - (amount * BigInt(TRANSFER_FEE_BPS)) / 10_000n,
      blockNumber: block,
    });
    for (const fee of plain)
      expect(fee).toEqual({ status: "measured", bps: 0, sent: amount, received: amount, blockNumber: block });
    // Simulated only: neither synthetic address holds anything on chain.
    for (const who of [TRANSFER_FEE_HOLDER, TRANSFER_FEE_RECIPIENT])
      expect(
        await devnet.publicClient.readContract({
          address: token("TAX"),
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [who],
        }),
      ).toBe(0n);
  });

  it("answers native ETH without a call, and many tokens in one eth_call once their slots are known", async () => {
    const { client, methods } = countingClient();
    const measure = createTransferFeeMeter(client);
    const block = await client.getBlockNumber();
    const queries = ["TAX", "USDC", "DAI"].map((symbol) => ({
      token: token(symbol) as Address,
      amount: 10n ** 6n,
    }));
    await measure(queries, block);
    methods.length = 0;
    const fees = await measure([...queries, { token: zeroAddress, amount: 1n }], block);
    expect(methods).toEqual(["eth_call"]);
    expect(fees.map((fee) => (fee.status === "measured" ? fee.bps : fee.status))).toEqual([
      TRANSFER_FEE_BPS,
      0,
      0,
      "native",
    ]);
  });

  it("measures a token's first fee in one eth_call when the fixtures already learned its layout", async () => {
    const { client, methods } = countingClient();
    const fixtures = createFixtures(client);
    const block = await client.getBlockNumber();
    const tokens = ["TAX", "USDC", "SOLA"].map((symbol) => token(symbol) as Address);
    // What the service does for every indexed token in the background, before any quote.
    for (const t of tokens) await fixtures.learn(t, devnet.manifest.contracts.executor, block);
    methods.length = 0;
    const measure = createTransferFeeMeter(client, fixtures);
    const fees = await measure(
      tokens.map((t) => ({ token: t, amount: 10n ** 6n })),
      block,
    );
    expect(methods).toEqual(["eth_call"]);
    expect(fees.map((fee) => (fee.status === "measured" ? fee.bps : fee.status))).toEqual([
      TRANSFER_FEE_BPS,
      0,
      0,
    ]);
    // A token the fixtures never learned is detected for the same holder first, as before.
    methods.length = 0;
    const [dai] = await measure([{ token: token("DAI"), amount: 10n ** 6n }], block);
    expect(dai).toMatchObject({ status: "measured", bps: 0 });
    expect(methods[0]).toBe("eth_createAccessList");
  });

  it("rounds a shortfall up: an amount too small to be taxed measures 0, any taxed amount at least 1 bps", async () => {
    const measure = createTransferFeeMeter(devnet.publicClient);
    const block = await devnet.publicClient.getBlockNumber();
    // 1% of 99 wei floors to 0: nothing is taken, and nothing is reported.
    const [dust, small] = await measure(
      [
        { token: token("TAX"), amount: 99n },
        { token: token("TAX"), amount: 101n },
      ],
      block,
    );
    expect(dust).toMatchObject({ status: "measured", bps: 0 });
    // 1 of 101 taken: 99.0 bps, rounded up to 100.
    expect(small).toMatchObject({ status: "measured", bps: 100, sent: 101n, received: 100n });
  });

  it("calls a rebased token's fee unknown, with its reason, instead of guessing", async () => {
    const rUsd = token("rUSD");
    await rebaseShares(devnet, 1013n);
    const block = await devnet.publicClient.getBlockNumber();
    const [fee] = await createTransferFeeMeter(devnet.publicClient)(
      [{ token: rUsd, amount: 10n ** 18n }],
      block,
    );
    expect(fee).toEqual({ status: "unknown", reason: "balance-slot-not-found", blockNumber: block });
  });
});
