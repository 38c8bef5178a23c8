import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { createPartnerTestApi, type PartnerTestApi } from "../../../../test/partner-api.ts";
import { type StandInProviders, startStandInProviders } from "../../../../test/stand-in-providers.ts";
import { PROVIDER_DEADLINE_MS } from "../../../config/config.ts";
import { executorArtifact } from "../../../contracts/artifacts/Executor.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * Whatever wins is executed (docs/rules.md, ours: aggregator execution): a builder quote naming each
 * third-party source, and partner quotes over the fixed scenario set, sent from funded wallets through the
 * executor; the recipient receives exactly the quoted net output, the receipt verifies to finality and the
 * settlement appears once in history. Every fault of the stand-ins ends as a closed error, never a
 * transaction.
 */
const BUILDER_PAYER = 7;
const PARTNER_PAYER = 5;
let devnet: TestDevnet;
let providers: StandInProviders;
let builders: BuilderTestApi;
let partner: PartnerTestApi;
let key: string;

beforeAll(async () => {
  devnet = await startTestDevnet();
  providers = await startStandInProviders(devnet);
  // A loaded CI machine makes the stand-ins slow to answer; a deadline below their slow fault still.
  const quoting = {
    providers: [providers.aggregatorA, providers.aggregatorB],
    deadlineMs: PROVIDER_DEADLINE_MS.max - 2_000,
  };
  builders = await createBuilderTestApi(devnet, { postgres: true, providers: quoting });
  partner = await createPartnerTestApi(devnet, { providers: quoting });
  const demo = await builders.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  key = await builders.key(demo.id, ["quote", "swap", "receipts"]);
}, 120_000);
afterAll(async () => {
  await builders?.close();
  await partner?.close();
  await providers?.close();
  await devnet?.dispose();
});

const token = (symbol: string): Address =>
  symbol === "ETH" ? zeroAddress : devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const weth = () => devnet.manifest.contracts.weth9;
const executor = () => devnet.manifest.contracts.executor;
const holding = (asset: Address, who: Address) =>
  asset === zeroAddress
    ? devnet.publicClient.getBalance({ address: who })
    : devnet.publicClient.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [who],
      });

async function builderCall(method: "GET" | "POST", path: string, input: Record<string, unknown>) {
  const response = await builders.call(method, path, {
    key,
    ...(method === "GET" ? { query: input as Record<string, string> } : { body: input }),
    ...(path.endsWith("/swaps") ? { headers: { "idempotency-key": `agg-${Math.random()}` } } : {}),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Sends a transaction from test wallet `index` and waits for its receipt. */
async function send(index: number, tx: { to: Address; data: Hex; value?: bigint; gas?: bigint }) {
  const wallet = devnet.wallet(index);
  const hash = await wallet.sendTransaction({ account: wallet.account!, chain: wallet.chain, ...tx });
  return devnet.publicClient.waitForTransactionReceipt({ hash });
}

async function approveExecutor(index: number, asset: Address) {
  if (asset === zeroAddress) return;
  await send(index, {
    to: asset,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [executor(), maxUint256] }),
  });
}

/**
 * The executor holds nothing of either token after a swap but the fees it owes (the demo builder's, and the
 * service's under the builder's wallet or the zero account).
 */
async function expectExecutorEmpty(tokenIn: Address, tokenOut: Address) {
  const accounts = [zeroAddress, devnet.manifest.junction.demoBuilder.recipient];
  const credit = (functionName: "claimable" | "serviceClaimable", account: Address, asset: Address) =>
    devnet.publicClient.readContract({
      address: executor(),
      abi: executorArtifact.abi,
      functionName,
      args: [account, asset],
    });
  for (const asset of [tokenIn, tokenOut, weth()]) {
    let owed = 0n;
    for (const account of accounts)
      owed +=
        (await credit("claimable", account, asset)) + (await credit("serviceClaimable", account, asset));
    expect(await holding(asset, executor()), asset).toBe(owed);
  }
}

describe("builder quotes settle every source through the executor", () => {
  // The last cases charge nothing at all (no service fee on an aggregator's quote, builder fee 0): the
  // executor's `Attributed` record, read by receipts and history like the collector's `Settled`.
  const cases = [
    { provider: "aggregator-a", zeroFee: false },
    { provider: "aggregator-a-direct", zeroFee: false },
    { provider: "aggregator-b", zeroFee: false },
    { provider: "aggregator-a", zeroFee: true },
    { provider: "aggregator-b", zeroFee: true },
  ] as const;
  for (const { provider, zeroFee } of cases) {
    it(`${provider}${zeroFee ? ", builder fee 0" : ""}: quote, prepare, approve, send, receive exactly the net, verify to finality, history once`, async () => {
      const wallet = devnet.wallet(BUILDER_PAYER);
      const payer = wallet.account!.address;
      const [tokenIn, tokenOut] = [weth(), token("USDC")];
      const amountIn = parseEther("1");
      // A block at the wall clock: a firm quote's short expiry counts from the quote block's time.
      await devnet.testClient.mine({ blocks: 1 });
      const quoted = await builderCall("GET", "/api/v2/builders/quote", {
        tokenIn,
        tokenOut,
        amountIn: amountIn.toString(),
        payer,
        provider,
        ...(zeroFee ? { builderFeeBps: "0" } : {}),
      });
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
      const q = quoted.body;
      const demo = devnet.manifest.junction.demoBuilder;
      const builderBps = zeroFee ? 0 : demo.builderFeeBps;
      const gross = BigInt(q.grossAmountOut);
      // Fee rule 2: no service fee on an aggregator's quote; the builder fee applies as on our own routes.
      expect(q).toMatchObject({
        provider,
        routeFee: "0",
        fees: { routeBps: 0, builderBps },
      });
      expect(BigInt(q.builderFee)).toBe((gross * BigInt(builderBps)) / 10_000n);
      expect(BigInt(q.amountOut)).toBe(gross - BigInt(q.builderFee));
      expect(q.routes).toEqual([]);
      expect(q.execution.status).toBe("simulated");

      const prepared = await builderCall("POST", "/api/v2/builders/swaps", { quoteId: q.quoteId });
      expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
      const p = prepared.body;
      expect(p.tx.to).toBe(executor().toLowerCase());
      expect(p.approval.spender).toBe(executor().toLowerCase());
      expect(p.simulation.amountOut).toBe(q.amountOut);

      await send(BUILDER_PAYER, {
        to: weth(),
        data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
        value: amountIn,
      });
      await approveExecutor(BUILDER_PAYER, tokenIn);
      const before = await holding(tokenOut, payer);
      const receipt = await send(BUILDER_PAYER, {
        to: p.tx.to,
        data: p.tx.data,
        value: BigInt(p.tx.value),
        gas: BigInt(p.tx.gas),
      });
      expect(receipt.status).toBe("success");
      expect((await holding(tokenOut, payer)) - before).toBe(BigInt(q.amountOut));
      await expectExecutorEmpty(tokenIn, tokenOut);

      const verify = () =>
        builderCall("POST", "/api/v2/builders/receipts", {
          quoteId: q.quoteId,
          hash: receipt.transactionHash,
        });
      expect((await verify()).body.status).toBe("confirming");
      await devnet.testClient.mine({ blocks: 3 });
      const finalized = await verify();
      expect(finalized.body).toMatchObject({
        status: "finalized",
        routeFee: "0",
        builderFee: q.builderFee,
        amountOut: q.amountOut,
        tokenOut: tokenOut.toLowerCase(),
      });
      const history = await builderCall("GET", "/api/v2/builders/history", {});
      const entries = (history.body.settlements as Json[]).filter((s) => s.quoteId === q.quoteId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        routeFee: "0",
        builderFee: q.builderFee,
        amountOut: q.amountOut,
        grossAmountOut: q.grossAmountOut,
      });
      expect(String(entries[0]!.builderRecipient).toLowerCase()).toBe(demo.recipient.toLowerCase());
      const records = parseEventLogs({
        abi: executorArtifact.abi,
        logs: receipt.logs,
        eventName: "Attributed",
      });
      expect(records, "an Attributed record exactly when nothing was charged").toHaveLength(zeroFee ? 1 : 0);
      // Without a builder fee either aggregator's transaction pays the payer directly (one transfer and one
      // balance write less); with one, the output comes through the executor, which takes the fee.
      const paidOn = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" }).filter(
        (log) =>
          log.address.toLowerCase() === tokenOut.toLowerCase() &&
          log.args.from.toLowerCase() === executor().toLowerCase(),
      );
      expect(paidOn.length, "transfers of the output from the executor").toBe(zeroFee ? 0 : 1);
    });
  }

  it("ends each stand-in fault as a closed error, never a transaction", async () => {
    const ask = (provider: string) =>
      builderCall("GET", "/api/v2/builders/quote", {
        tokenIn: weth(),
        tokenOut: token("USDC"),
        amountIn: parseEther("1").toString(),
        payer: devnet.wallet(BUILDER_PAYER).account!.address,
        provider,
      });
    for (const mode of ["wrong-binding", "expired", "short", "stale-settler", "revert"]) {
      await providers.fault("aggregator-b", mode, 1);
      const { status, body } = await ask("aggregator-b");
      // The builder surface restates NO_EXECUTABLE_ROUTE as 400 UNSUPPORTED_TERMS (docs/rules.md, errors: builder).
      expect(status, mode).toBe(400);
      expect(body.error.code, mode).toBe("UNSUPPORTED_TERMS");
      expect(JSON.stringify(body), mode).not.toMatch(/0x[0-9a-f]{200}/i);
    }
    // The registry stops naming the quoted settler before the swap is prepared: refused, nothing to sign.
    // (A block at the wall clock first: the firm quote's short expiry counts from the quote block's time.)
    await devnet.testClient.mine({ blocks: 1 });
    const quoted = await ask("aggregator-b");
    expect(quoted.status).toBe(200);
    const { aggregators } = devnet.manifest;
    const deployer = devnet.manifest.accounts[0]!.address;
    const setActive = async (settler: Address) => {
      const hash = await devnet.testClient.sendUnsignedTransaction({
        from: deployer,
        to: aggregators.settlerRegistry,
        data: encodeFunctionData({
          abi: parseAbi(["function setActive(uint128 feature, address settler)"]),
          functionName: "setActive",
          args: [2n, settler],
        }),
      });
      const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
    };
    await devnet.testClient.impersonateAccount({ address: deployer });
    await setActive(aggregators.staleSettler);
    try {
      const prepared = await builderCall("POST", "/api/v2/builders/swaps", { quoteId: quoted.body.quoteId });
      expect(prepared.status, JSON.stringify(prepared.body)).toBe(503);
      expect(prepared.body.error.code).toBe("PREPARATION_FAILED");
      expect(prepared.body.error.message).toMatch(/SettlerNotActive/);
    } finally {
      await setActive(aggregators.settler);
      await devnet.testClient.stopImpersonatingAccount({ address: deployer });
    }
  });
});

describe("partner quotes hand out the winning source's transaction", () => {
  it("executes every winner of the fixed scenario set and delivers exactly swap.netOut", async () => {
    const scenarios: [string, string, bigint][] = [
      ["WETH", "LINK", parseEther("0.1")],
      ["AAVE", "DAI", parseEther("10")],
      ["USDT", "UNI", 1_000_000_000n],
      ["OP", "USDC", parseEther("1000")],
      ["ETH", "USDC", parseEther("0.05")],
      ["USDC", "ETH", 100_000_000n],
      ["UNI", "DAI", parseEther("10")],
      ["WETH", "USDC", parseEther("1")],
    ];
    const recipient = devnet.wallet(PARTNER_PAYER).account!.address;
    const rows: string[] = [];
    for (const [inSymbol, outSymbol, amountIn] of scenarios) {
      const [tokenIn, tokenOut] = [token(inSymbol), token(outSymbol)];
      // The wallet holds and has approved its input before it asks, as a user's does.
      if (tokenIn === weth())
        await send(PARTNER_PAYER, {
          to: weth(),
          data: encodeFunctionData({
            abi: parseAbi(["function deposit() payable"]),
            functionName: "deposit",
          }),
          value: amountIn,
        });
      await approveExecutor(PARTNER_PAYER, tokenIn);
      // A block at the wall clock: the firm quote's short expiry counts from the quote block's time.
      await devnet.testClient.mine({ blocks: 1 });
      const response = await partner.get("/quote", {
        in: tokenIn,
        out: tokenOut,
        amount: amountIn.toString(),
        recipient,
      });
      const quote = (await response.json()) as Json;
      expect(quote.ok, `${inSymbol}->${outSymbol}: ${quote.error}`).toBe(true);
      if (quote.source !== "service")
        expect([quote.swap.fee, quote.swap.feeBps, quote.swaps]).toEqual(["0", 0, []]);
      const before = await holding(tokenOut, recipient);
      const receipt = await send(PARTNER_PAYER, {
        to: quote.tx.to,
        data: quote.tx.data,
        value: BigInt(quote.tx.value),
      });
      expect(receipt.status).toBe("success");
      const gasPaid = tokenOut === zeroAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
      const received = (await holding(tokenOut, recipient)) - before + gasPaid;
      expect(received, `${inSymbol}->${outSymbol}`).toBe(BigInt(quote.swap.netOut));
      await expectExecutorEmpty(tokenIn, tokenOut);
      rows.push(
        `${inSymbol}->${outSymbol} ${quote.source}: simulated ${quote.swap.netOut}, executed ${received}, gas ${quote.swap.executorGas} / used ${receipt.gasUsed}`,
      );
    }
    console.info(rows.join("\n"));
    // The set is chosen so the aggregators win some of it: their wins are what this test executes.
    expect(
      rows.some((row) => / aggregator-/.test(row)),
      rows.join("\n"),
    ).toBe(true);
  });

  it("answers a faulty firm quote with ok: false and no transaction", async () => {
    await providers.fault("aggregator-a", "decline");
    try {
      for (const mode of ["wrong-binding", "expired", "short"]) {
        await providers.fault("aggregator-b", mode, 1);
        const response = await partner.get("/quote", {
          in: weth(),
          out: token("LINK"),
          amount: parseEther("0.1").toString(),
          recipient: devnet.wallet(PARTNER_PAYER).account!.address,
        });
        const quote = (await response.json()) as Json;
        // Junction's own route still wins when the firm quote fails; the failed one is never handed out.
        expect(quote.source, mode).toBe("service");
        expect(quote.ok, mode).toBe(true);
      }
    } finally {
      await providers.fault("aggregator-a", "none");
    }
  });
});
