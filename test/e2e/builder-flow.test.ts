import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_ID, junctionChain } from "../../src/chain/chain.ts";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * The builder API as an integrator meets it, black-box against `junction start`: the operator creates a
 * workspace with the CLI and activates it through a prepared registry transaction signed by the builder's
 * wallet; the service picks the activation up from registry events; then key, quote, swap preparation,
 * signing and sending with viem, receipts `confirming` then `finalized`, history with its totals, and a
 * reorg during pagination answered by 409.
 */
const BUILDER = 7;
const CODE = "e2e-builder";
let service: SpawnedService;
let manifest: Manifest;
let key: string;
const chain = () => junctionChain(service.rpcUrl);
const publicClient = () =>
  createPublicClient({ chain: chain(), transport: http(service.rpcUrl), cacheTime: 0 });
const testClient = () =>
  createTestClient({
    chain: chain(),
    // Mining a thousand blocks at once takes a while on a busy machine.
    transport: http(service.rpcUrl, { timeout: 120_000 }),
    mode: "anvil",
    cacheTime: 0,
  });
const wallet = () =>
  createWalletClient({
    chain: chain(),
    transport: http(service.rpcUrl),
    account: privateKeyToAccount(manifest.accounts[BUILDER]!.privateKey as Hex),
  });
const token = (symbol: string) => manifest.tokens.find((t) => t.symbol === symbol)!.address;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;
const api = async (
  method: "GET" | "POST",
  path: string,
  options: {
    key?: string;
    body?: unknown;
    query?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) => {
  const url = `${service.baseUrl}${path}${options.query ? `?${new URLSearchParams(options.query)}` : ""}`;
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.key ? { "x-api-key": options.key } : {}),
      ...(options.body ? { "content-type": "application/json" } : {}),
      ...(options.headers ?? {}),
    },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  // No error or success body ever carries a stack trace.
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Json };
};
const cliJson = async (args: string[]) => {
  const result = await service.cli([...args, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Json;
};
const send = async (tx: { to: Hex; data: Hex; value?: bigint; gas?: bigint }) => {
  const w = wallet();
  const hash = await w.sendTransaction({ account: w.account, chain: w.chain, ...tx });
  const receipt = await publicClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe("success");
  return receipt;
};

beforeAll(async () => {
  // Background blocks are off: the test mines, so finality moves only when it says so.
  service = await spawnService({ JUNCTION_DEVNET_BLOCK_TIME: "0" });
  manifest = service.manifest();
}, 120_000);
afterAll(() => service?.kill());

describe("builder API end to end", () => {
  it("lists a demo workspace with a key per scope in the manifest, usable at once", async () => {
    const demo = manifest.demoWorkspace!;
    expect(demo.builderCode).toBe(manifest.junction.demoBuilder.code);
    const profile = await api("GET", "/api/v2/builders/profile", {
      key: demo.keys.tokens,
      query: { code: demo.builderCode },
    });
    expect(profile.status).toBe(200);
    expect(profile.body.builder).toMatchObject({
      code: demo.builderCode,
      enabled: true,
      policySource: "onchain",
    });
    expect((await api("GET", "/api/v2/builders/usage", { key: demo.keys.all })).status).toBe(200);
    const forbidden = await api("GET", "/api/v2/builders/usage", { key: demo.keys.quote });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({
      error: { code: "FORBIDDEN", message: "the API key lacks the tokens scope" },
    });
    expect((await api("GET", "/api/v2/builders/usage")).status).toBe(401);
  });

  it("activates a new workspace through a prepared registry transaction picked up from registry events", async () => {
    const owner = wallet().account.address;
    const created = await cliJson(["workspace", "create", "--name", "E2E builder", "--code", CODE]);
    expect(created.workspace).toMatchObject({ code: CODE, activated: false });
    const refused = await service.cli([
      "key",
      "create",
      "--workspace",
      CODE,
      "--name",
      "q",
      "--scopes",
      "quote",
      "--json",
    ]);
    expect(refused.code).toBe(1);
    const prepared = await cliJson([
      "workspace",
      "activate",
      "--code",
      CODE,
      "--owner",
      owner,
      "--recipient",
      owner,
      "--fee",
      "15",
    ]);
    expect(prepared.transaction).toMatchObject({
      to: manifest.contracts.builderRegistry,
      value: "0",
      chainId: CHAIN_ID,
    });
    await send({ to: prepared.transaction.to, data: prepared.transaction.data });
    await testClient().mine({ blocks: 3 });
    // The service's registry follower marks the workspace active; nobody else touches it here.
    const deadline = Date.now() + 30_000;
    let activated = false;
    while (!activated && Date.now() < deadline) {
      const { workspaces } = await cliJson(["workspace", "list"]);
      activated = workspaces.some((w: Json) => w.code === CODE && w.activated);
      if (!activated) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(activated).toBe(true);
    const created2 = await cliJson([
      "key",
      "create",
      "--workspace",
      CODE,
      "--name",
      "backend",
      "--scopes",
      "quote,swap,receipts,tokens",
      "--expires",
      "30d",
    ]);
    key = created2.key.secret;
    expect(key).toMatch(/^jct_/);
  });

  let quoteId: string;
  let issued: Json;
  let txHash: Hex;
  it("quotes, prepares, and delivers what it prepared when the payer signs and sends it", async () => {
    const payer = wallet().account.address;
    const quote = await api("GET", "/api/v2/builders/quote", {
      key,
      query: {
        tokenIn: manifest.contracts.weth9,
        tokenOut: token("USDC"),
        amountIn: parseEther("3").toString(),
        payer,
      },
    });
    expect(quote.status).toBe(200);
    issued = quote.body;
    quoteId = issued.quoteId;
    expect(issued).toMatchObject({
      builderCode: CODE,
      policySource: "onchain",
      settlementAvailable: true,
      fees: { builderBps: 15, builderRecipient: payer.toLowerCase() },
    });

    const prepared = await api("POST", "/api/v2/builders/swaps", {
      key,
      body: { quoteId },
      headers: { "idempotency-key": `e2e-${quoteId.slice(2, 18)}` },
    });
    expect(prepared.status).toBe(200);
    expect(prepared.body.approval).toMatchObject({
      spender: manifest.contracts.executor.toLowerCase(),
      required: true,
    });
    expect(BigInt(prepared.body.simulation.amountOut)).toBe(BigInt(issued.amountOut));

    await send({
      to: manifest.contracts.weth9,
      data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
      value: parseEther("3"),
    });
    await send({
      to: manifest.contracts.weth9,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [manifest.contracts.executor, maxUint256],
      }),
    });
    const before = await publicClient().readContract({
      address: token("USDC"),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [payer],
    });
    const receipt = await send({
      to: prepared.body.tx.to,
      data: prepared.body.tx.data,
      value: BigInt(prepared.body.tx.value),
      gas: BigInt(prepared.body.tx.gas),
    });
    txHash = receipt.transactionHash;
    const after = await publicClient().readContract({
      address: token("USDC"),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [payer],
    });
    expect(after - before).toBe(BigInt(issued.amountOut));
  });

  it("verifies the receipt: confirming until finalized, then finalized and recorded", async () => {
    const confirming = await api("POST", "/api/v2/builders/receipts", {
      key,
      body: { quoteId, hash: txHash },
    });
    expect(confirming.status).toBe(200);
    expect(confirming.body).toMatchObject({
      status: "confirming",
      hash: txHash,
      builderCode: CODE,
      amountOut: issued.amountOut,
      routeFee: issued.routeFee,
      builderFee: issued.builderFee,
    });
    await testClient().mine({ blocks: 3 });
    const finalized = await api("POST", "/api/v2/builders/receipts", {
      key,
      body: { quoteId, hash: txHash },
    });
    expect(finalized.body).toMatchObject({
      status: "finalized",
      hash: txHash,
      tokenOut: token("USDC").toLowerCase(),
    });
    const stranger = await api("POST", "/api/v2/builders/receipts", {
      key: manifest.demoWorkspace!.keys.receipts,
      body: { quoteId, hash: txHash },
    });
    expect(stranger.status).toBe(404);
  });

  it("lists the settlement in history with page totals per token", async () => {
    const page = await api("GET", "/api/v2/builders/history", { key, query: { code: CODE } });
    expect(page.status).toBe(200);
    expect(page.body.settlements).toHaveLength(1);
    expect(page.body.settlements[0]).toMatchObject({
      quoteId,
      builderCode: CODE,
      hash: txHash,
      amountOut: issued.amountOut,
      routeFee: issued.routeFee,
      builderFee: issued.builderFee,
      grossAmountOut: issued.grossAmountOut,
      status: "finalized",
    });
    expect(page.body.totalsScope).toBe("page");
    expect(page.body.totalsByToken).toEqual([
      expect.objectContaining({
        amountOut: issued.amountOut,
        routeFee: issued.routeFee,
        builderFee: issued.builderFee,
        count: 1,
      }),
    ]);
  });

  it("answers 409 when a reorg replaces the snapshot during pagination; a fresh start works", async () => {
    // More than one page of blocks, so the first page ends with a cursor pinned to the finalized block.
    const height = await publicClient().getBlockNumber();
    const scanned = height - BigInt(manifest.deploymentBlock);
    if (scanned < 1_010n) await testClient().mine({ blocks: Number(1_010n - scanned) });
    const fork = await testClient().snapshot();
    await testClient().mine({ blocks: 3 });
    const first = await api("GET", "/api/v2/builders/history", { key, query: { code: CODE } });
    expect(first.status).toBe(200);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    // A reorg: the chain goes back below the pinned block and grows a different branch (a transaction
    // makes its blocks differ), so the block at finalizedThrough no longer has the snapshot's hash.
    await testClient().revert({ id: fork });
    await send({ to: wallet().account.address, data: "0x", value: 1n });
    await testClient().mine({ blocks: 3 });
    expect(
      (await publicClient().getBlock({ blockNumber: BigInt(first.body.finalizedThrough) })).hash,
    ).not.toBe(first.body.snapshotHash);
    const second = await api("GET", "/api/v2/builders/history", {
      key,
      query: { code: CODE, cursor: first.body.nextCursor },
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("SNAPSHOT_NOT_CANONICAL");
    let cursor: string | null = null;
    let seen = 0;
    let pages = 0;
    do {
      const page: { status: number; body: Json } = await api("GET", "/api/v2/builders/history", {
        key,
        query: { code: CODE, ...(cursor ? { cursor } : {}) },
      });
      expect(page.status).toBe(200);
      seen += page.body.settlements.length;
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(cursor).toBeNull();
    expect(seen).toBe(1);
  });

  it("documents every builder endpoint in the OpenAPI document", async () => {
    const doc = await api("GET", "/openapi.json");
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v2/builders/quote",
        "/api/v2/builders/swaps",
        "/api/v2/builders/swaps/{idempotencyKey}",
        "/api/v2/builders/receipts",
        "/api/v2/builders/registry-transactions",
        "/api/v2/builders/history",
        "/api/v2/builders/profile",
        "/api/v2/builders/tokens",
        "/api/v2/builders/usage",
        "/api/v2/builders/integration",
      ]),
    );
    expect(doc.body.components.securitySchemes.ApiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
  });
});
