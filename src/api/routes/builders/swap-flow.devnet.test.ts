import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { UNKNOWN_TRANSACTION_GRACE_SECONDS } from "../../../builders/receipts.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { createChainClient } from "../../../chain/create-chain-client.ts";
import { erc20Abi } from "../../../contracts/abis/ERC20.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../../../contracts/artifacts/Executor.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/** The attributed flow an integrator runs: quote → prepare → sign and send → receipts to finality. */
const PAYER = 6;
let devnet: TestDevnet;
let api: BuilderTestApi;
let clockOffsetMs = 0;
let key: string;
let otherKey: string;

beforeAll(async () => {
  devnet = await startTestDevnet();
  // On the Postgres server when one is configured (CI), else embedded PGlite.
  api = await createBuilderTestApi(devnet, { postgres: true, now: () => Date.now() + clockOffsetMs });
  const demo = await api.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  key = await api.key(demo.id, ["quote", "swap", "receipts"]);
  otherKey = await api.key(demo.id, ["quote", "swap", "receipts"]);
});
afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const payer = () => devnet.wallet(PAYER).account!.address;
const quote = async (query: Record<string, string>, apiKey = key) => {
  const response = await api.call("GET", "/api/v2/builders/quote", { key: apiKey, query });
  return { status: response.status, body: (await response.json()) as Json };
};
const prepare = async (quoteId: string, idempotencyKey?: string, apiKey = key) => {
  const response = await api.call("POST", "/api/v2/builders/swaps", {
    key: apiKey,
    body: { quoteId },
    ...(idempotencyKey ? { headers: { "idempotency-key": idempotencyKey } } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Json, text };
};
const receipts = async (quoteId: string, hash: string, apiKey = key) => {
  const response = await api.call("POST", "/api/v2/builders/receipts", {
    key: apiKey,
    body: { quoteId, hash },
  });
  return { status: response.status, body: (await response.json()) as Json };
};
const balanceOf = (asset: Address, who: Address) =>
  devnet.publicClient.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [who] });

describe("builder quote → swap preparation → receipts", () => {
  let issued: Json;
  let prepared: Json;
  let txHash: Hex;

  it("quotes with the registry's fees at the quote block, separately", async () => {
    const { status, body } = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("2").toString(),
      payer: payer(),
    });
    expect(status).toBe(200);
    issued = body;
    const demo = devnet.manifest.junction.demoBuilder;
    const [routeBps] = await devnet.publicClient.readContract({
      address: devnet.manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "routeFeeBps",
      args: [devnet.manifest.contracts.weth9, token("USDC"), demo.builderId],
      blockNumber: BigInt(body.block.number),
    });
    const gross = BigInt(body.grossAmountOut);
    expect(body).toMatchObject({
      builderCode: demo.code,
      chainId: CHAIN_ID,
      payer: payer().toLowerCase(),
      recipient: payer().toLowerCase(),
      policySource: "onchain",
      settlementAvailable: true,
      registry: devnet.manifest.contracts.builderRegistry.toLowerCase(),
      provider: "service",
      fees: {
        routeBps: routeBps,
        builderBps: demo.builderFeeBps,
        builderRecipient: demo.recipient.toLowerCase(),
      },
    });
    expect(BigInt(body.routeFee)).toBe((gross * BigInt(routeBps)) / 10_000n);
    expect(BigInt(body.builderFee)).toBe((gross * BigInt(demo.builderFeeBps)) / 10_000n);
    expect(BigInt(body.amountOut)).toBe(gross - BigInt(body.routeFee) - BigInt(body.builderFee));
    expect(BigInt(body.minimumAmountOut)).toBe((BigInt(body.amountOut) * 9_950n) / 10_000n);
    expect(body.quoteId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(body.routes.length).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toMatch(/0x[0-9a-f]{300}/i);
  });

  it("prepares the swap once per Idempotency-Key, simulated from the payer", async () => {
    expect((await prepare(issued.quoteId)).status).toBe(400);
    const first = await prepare(issued.quoteId, "prep-0001");
    expect(first.status).toBe(200);
    prepared = first.body;
    expect(prepared).toMatchObject({
      status: "ready",
      quoteId: issued.quoteId,
      tx: {
        from: payer().toLowerCase(),
        to: devnet.manifest.contracts.executor.toLowerCase(),
        value: "0",
        chainId: CHAIN_ID,
      },
      approval: {
        token: devnet.manifest.contracts.weth9.toLowerCase(),
        spender: devnet.manifest.contracts.executor.toLowerCase(),
        amount: parseEther("2").toString(),
        required: true,
      },
      minimumAmountOut: issued.minimumAmountOut,
      deadline: issued.deadline,
    });
    // The deadline saved with the quote is the one its calldata carries.
    const { args } = decodeFunctionData({ abi: executorArtifact.abi, data: prepared.tx.data });
    expect(BigInt(prepared.deadline)).toBe((args[0] as { deadline: bigint }).deadline);
    expect(BigInt(prepared.simulation.amountOut)).toBe(BigInt(issued.amountOut));
    expect(BigInt(prepared.tx.gas)).toBeGreaterThan(BigInt(prepared.simulation.gas));

    // Replayed from the saved status, byte for byte; the same key with another body conflicts; another key
    // sees nothing.
    expect((await prepare(issued.quoteId, "prep-0001")).text).toBe(first.text);
    const other = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("DAI"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    expect((await prepare(other.body.quoteId, "prep-0001")).body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    expect((await prepare(issued.quoteId, "prep-0002", otherKey)).body.error.code).toBe("PLAN_NOT_FOUND");
    const saved = await api.call("GET", "/api/v2/builders/swaps/prep-0001", { key });
    expect(await saved.json()).toEqual({
      idempotencyKey: "prep-0001",
      quoteId: issued.quoteId,
      status: "ready",
      swap: prepared,
    });
    expect((await api.call("GET", "/api/v2/builders/swaps/prep-0001", { key: otherKey })).status).toBe(404);
  });

  it("delivers what was prepared when signed and sent, then verifies the receipt to finality", async () => {
    const wallet = devnet.wallet(PAYER);
    const account = wallet.account!;
    const weth = devnet.manifest.contracts.weth9;
    for (const tx of [
      {
        to: weth,
        data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
        value: parseEther("2"),
      },
      {
        to: weth,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "approve",
          args: [prepared.approval.spender, maxUint256],
        }),
        value: 0n,
      },
    ]) {
      const hash = await wallet.sendTransaction({ account, chain: wallet.chain, ...tx });
      await devnet.publicClient.waitForTransactionReceipt({ hash });
    }
    const before = await balanceOf(token("USDC"), account.address);
    txHash = await wallet.sendTransaction({
      account,
      chain: wallet.chain,
      to: prepared.tx.to,
      data: prepared.tx.data,
      value: BigInt(prepared.tx.value),
      gas: BigInt(prepared.tx.gas),
    });
    const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe("success");
    expect((await balanceOf(token("USDC"), account.address)) - before).toBe(BigInt(issued.amountOut));

    const confirming = await receipts(issued.quoteId, txHash);
    expect(confirming.status).toBe(200);
    expect(confirming.body).toMatchObject({
      status: "confirming",
      hash: txHash,
      builderCode: issued.builderCode,
      routeFee: issued.routeFee,
      builderFee: issued.builderFee,
      amountOut: issued.amountOut,
      tokenOut: token("USDC").toLowerCase(),
      blockNumber: receipt.blockNumber.toString(),
    });
    expect(await api.store.db.selectFrom("settlements").selectAll().execute()).toHaveLength(0);

    // One block later the node's `finalized` tag (latest − 2 here) is still below the transaction; with
    // JUNCTION_FINALITY_CONFIRMATIONS=1 the service's client puts the finalized head at latest − 1, and
    // receipts and history follow it (docs/rules.md, ours: finality).
    await devnet.testClient.mine({ blocks: 1 });
    expect((await receipts(issued.quoteId, txHash)).body.status).toBe("confirming");
    const oneConfirmation = await createBuilderTestApi(devnet, {
      store: api.store,
      client: createChainClient({ url: devnet.rpcUrl, kind: "private" }, { finalityConfirmations: 1 }),
    });
    const history = async (app: BuilderTestApi) =>
      ((await (await app.call("GET", "/api/v2/builders/history", { key })).json()) as Json).finalizedThrough;
    expect(await history(api)).toBe((receipt.blockNumber - 1n).toString());
    expect(await history(oneConfirmation)).toBe(receipt.blockNumber.toString());
    const early = await oneConfirmation.call("POST", "/api/v2/builders/receipts", {
      key,
      body: { quoteId: issued.quoteId, hash: txHash },
    });
    expect(await early.json()).toMatchObject({ ...confirming.body, status: "finalized" });

    await devnet.testClient.mine({ blocks: 3 });
    const finalized = await receipts(issued.quoteId, txHash);
    expect(finalized.body).toMatchObject({ ...confirming.body, status: "finalized" });
    expect(await receipts(issued.quoteId, txHash)).toEqual(finalized);
    const rows = await api.store.db.selectFrom("settlements").selectAll().execute();
    expect(rows).toMatchObject([{ quote_id: issued.quoteId, hash: txHash, amount_out: issued.amountOut }]);

    const named = await api.call("POST", "/api/v2/builders/receipts", {
      key,
      body: { quoteId: issued.quoteId, hash: txHash, builderCode: "someone-else" },
    });
    expect(((await named.json()) as Json).error.code).toBe("RECEIPT_MISMATCH");
    // Only the key that prepared it; a transaction that does not settle this quote is refused.
    expect((await receipts(issued.quoteId, txHash, otherKey)).body.error.code).toBe("PLAN_NOT_FOUND");
    const foreign = await quote({
      tokenIn: weth,
      tokenOut: token("USDT"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    expect((await receipts(foreign.body.quoteId, txHash)).body.error.code).toBe("RECEIPT_MISMATCH");
  });

  it("prepares native ETH input with the value attached and nothing to approve, and delivers it", async () => {
    const wallet = devnet.wallet(PAYER);
    const account = wallet.account!;
    const { body } = await quote({
      tokenIn: zeroAddress,
      tokenOut: token("USDC"),
      amountIn: parseEther("1.5").toString(),
      payer: payer(),
    });
    const plan = await prepare(body.quoteId, "prep-native");
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      approval: null,
      tx: { value: parseEther("1.5").toString() },
      balance: { token: zeroAddress, required: parseEther("1.5").toString(), sufficient: true },
    });
    expect(plan.body.simulation.amountOut).toBe(body.amountOut);
    const before = await balanceOf(token("USDC"), account.address);
    const hash = await wallet.sendTransaction({
      account,
      chain: wallet.chain,
      to: plan.body.tx.to,
      data: plan.body.tx.data,
      value: BigInt(plan.body.tx.value),
      gas: BigInt(plan.body.tx.gas),
    });
    expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect((await balanceOf(token("USDC"), account.address)) - before).toBe(BigInt(body.amountOut));
  });

  it("previews an unregistered builder code locally and refuses to prepare it", async () => {
    const { body } = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
      builderCode: "not-registered",
      builderFeeBps: "20",
    });
    expect(body).toMatchObject({
      policySource: "local-preview",
      settlementAvailable: false,
      builderCode: "not-registered",
      fees: { builderBps: 20 },
    });
    expect((await prepare(body.quoteId, "prep-preview")).body.error.code).toBe("PLAN_NOT_READY");
    // The refusal saved nothing: the key is free once the plan can be prepared.
    expect((await api.call("GET", "/api/v2/builders/swaps/prep-preview", { key })).status).toBe(404);
  });

  it("saves a failed preparation (503) when the market moved past the quote's minimum", async () => {
    const weth = devnet.manifest.contracts.weth9;
    const small = await quote({
      tokenIn: weth,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
      slippageBps: "1",
    });
    // Another trader moves the first pool of the small quote's route a lot: its minimum is out of reach.
    const whale = devnet.wallet(8);
    const whaleAccount = whale.account!;
    const big = await quote({
      tokenIn: weth,
      tokenOut: small.body.routes[0].hops[0].tokenOut,
      amountIn: parseEther("300").toString(),
      payer: whaleAccount.address,
    });
    const bigPlan = await prepare(big.body.quoteId, "prep-whale");
    expect(bigPlan.status).toBe(200);
    for (const tx of [
      {
        to: weth,
        data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
        value: parseEther("300"),
      },
      {
        to: weth,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "approve",
          args: [bigPlan.body.tx.to, maxUint256],
        }),
        value: 0n,
      },
      { to: bigPlan.body.tx.to, data: bigPlan.body.tx.data, value: 0n },
    ]) {
      const hash = await whale.sendTransaction({ account: whaleAccount, chain: whale.chain, ...tx });
      expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    }

    const failed = await prepare(small.body.quoteId, "prep-moved");
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe("PREPARATION_FAILED");
    expect(failed.body.error.message).toContain("InsufficientOutput");
    expect(JSON.stringify(failed.body)).not.toMatch(/0x[0-9a-f]{200}/i);
    // The failure is saved: the status says so, and the same request replays it.
    const saved = await api.call("GET", "/api/v2/builders/swaps/prep-moved", { key });
    expect(await saved.json()).toMatchObject({ status: "failed", quoteId: small.body.quoteId });
    expect(await prepare(small.body.quoteId, "prep-moved")).toEqual(failed);
  });

  it("refuses an expired quote with 409 PLAN_EXPIRED", async () => {
    const { body } = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    clockOffsetMs = (body.expiresAt + 1) * 1000 - Date.now();
    try {
      const expired = await prepare(body.quoteId, "prep-expired");
      expect(expired.status).toBe(409);
      expect(expired.body.error.code).toBe("PLAN_EXPIRED");
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("answers confirming for a hash the chain never saw until the quote's deadline is a minute past, then 409 TRANSACTION_NOT_FOUND", async () => {
    const { body } = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    const unknown = `0x${"5e".repeat(32)}`;
    expect((await receipts(body.quoteId, unknown)).body).toMatchObject({
      status: "confirming",
      hash: unknown,
    });
    // By the chain's clock: at the deadline plus the grace the hash may still arrive; a second later, never.
    const latest = await devnet.publicClient.getBlock();
    const graceEnds = body.deadline + UNKNOWN_TRANSACTION_GRACE_SECONDS;
    await devnet.testClient.setNextBlockTimestamp({ timestamp: BigInt(graceEnds) });
    await devnet.testClient.mine({ blocks: 1 });
    expect(latest.timestamp).toBeLessThan(BigInt(graceEnds));
    expect((await receipts(body.quoteId, unknown)).body.status).toBe("confirming");
    await devnet.testClient.setNextBlockTimestamp({ timestamp: BigInt(graceEnds + 1) });
    await devnet.testClient.mine({ blocks: 1 });
    const gone = await receipts(body.quoteId, unknown);
    expect(gone.status).toBe(409);
    expect(gone.body.error.code).toBe("TRANSACTION_NOT_FOUND");
  });
});
