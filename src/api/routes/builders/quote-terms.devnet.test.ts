import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { builderIdOf } from "../../../builders/builder-code.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * The terms of a builder quote: query validation, the registry transactions that change a builder's terms,
 * the on-chain fee cap, and the workspace's quote quota. (The flow after the quote: swap-flow.devnet.test.ts.)
 */
const PAYER = 6;
let devnet: TestDevnet;
let api: BuilderTestApi;
let key: string;

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
  const demo = await api.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  key = await api.key(demo.id, ["quote", "swap"]);
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

describe("builder quote terms", () => {
  it("validates the query (docs/rules.md, builder quote rule 4) and refuses unknown parameters", async () => {
    const base = {
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: "1000",
      payer: payer(),
    };
    for (const [query, path] of [
      [{ ...base, slippageBps: "0" }, "slippageBps"],
      [{ ...base, slippageBps: "501" }, "slippageBps"],
      [{ ...base, builderFeeBps: "51" }, "builderFeeBps"],
      [{ ...base, builderCode: "no spaces" }, "builderCode"],
      [{ ...base, provider: "aggregator-z" }, "provider"],
      [{ ...base, payer: "0x1234" }, "payer"],
      [{ ...base, chainId: "4663x" }, "chainId"],
      // The executor would keep the output (docs/rules.md, ours: swap recipient): whichever field named it.
      [{ ...base, recipient: devnet.manifest.contracts.executor }, "recipient"],
      [
        { ...base, recipient: devnet.manifest.contracts.executor.toUpperCase().replace("0X", "0x") },
        "recipient",
      ],
      [{ ...base, payer: devnet.manifest.contracts.executor }, "payer"],
    ] as const) {
      const { status, body } = await quote(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error.code).toBe("INVALID_REQUEST");
      if (path) expect(body.error.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
  });

  it("refuses an aggregator this deployment has not enabled, naming it; service stays available", async () => {
    const base = {
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: "1000000000000000000",
      payer: payer(),
    };
    for (const provider of ["aggregator-a", "aggregator-b", "aggregator-a-direct"]) {
      const { status, body } = await quote({ ...base, provider });
      expect(status, provider).toBe(400);
      expect(body.error.code).toBe("UNSUPPORTED_TERMS");
      expect(body.error.message).toMatch(/not enabled on this deployment/);
    }
    const own = await quote({ ...base, provider: "service" });
    expect(own.status).toBe(200);
    expect(own.body.provider).toBe("service");
  });

  it("prepares registry transactions the owner's wallet signs, refusing what the registry would revert", async () => {
    const owner = devnet.wallet(2);
    const prepareRegistry = async (body: Record<string, unknown>) => {
      const response = await api.call("POST", "/api/v2/builders/registry-transactions", { key, body });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const stranger = await prepareRegistry({ action: "set-fee", from: payer(), builderFeeBps: 12 });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toMatchObject({ code: "UNSUPPORTED_TERMS" });
    expect(stranger.body.error.message).toContain("NotBuilderOwner");
    expect((await prepareRegistry({ action: "set-fee", from: payer(), builderFeeBps: 51 })).status).toBe(400);
    expect((await prepareRegistry({ action: "rename", from: payer() })).status).toBe(400);

    const prepared = await prepareRegistry({
      action: "set-fee",
      from: owner.account!.address,
      builderFeeBps: 12,
    });
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({
      action: "set-fee",
      code: devnet.manifest.junction.demoBuilder.code,
      tx: { to: devnet.manifest.contracts.builderRegistry.toLowerCase(), value: "0", chainId: CHAIN_ID },
    });
    const hash = await owner.sendTransaction({
      account: owner.account!,
      chain: owner.chain,
      to: prepared.body.tx.to,
      data: prepared.body.tx.data,
    });
    expect((await devnet.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    const requoted = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    expect(requoted.body.fees.builderBps).toBe(12);
  });

  it("refuses a builder fee above the builder's on-chain cap", async () => {
    const demo = devnet.manifest.junction.demoBuilder;
    const governance = devnet.wallet(1);
    const hash = await governance.writeContract({
      account: governance.account!,
      chain: governance.chain,
      address: devnet.manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "setBuilderMaxFee",
      args: [builderIdOf(demo.code), 5],
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
    const { status, body } = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
      builderFeeBps: "10",
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe("BUILDER_FEE_ABOVE_CAP");
    // Without an explicit fee the default is clamped to the cap.
    const clamped = await quote({
      tokenIn: devnet.manifest.contracts.weth9,
      tokenOut: token("USDC"),
      amountIn: parseEther("1").toString(),
      payer: payer(),
    });
    expect(clamped.body.fees.builderBps).toBe(5);
  });
});

describe("builder quote quota", () => {
  it("allows 10 builder quotes a minute across the workspace's keys, then 429 with Retry-After", async () => {
    const ws = await api.workspace();
    const [a, b] = [await api.key(ws.id, ["quote"]), await api.key(ws.id, ["quote"])];
    // Multi-swap plans share the quote quota and need no search: ten served plans spend it.
    const plan = {
      action: "multi-plan",
      input: {
        execution: "sequential",
        payer: payer(),
        inputs: [{ token: token("WETH"), amount: "1000" }],
        outputs: [{ token: token("USDC"), weightBps: 10_000 }],
      },
    };
    for (let i = 0; i < 10; i++) {
      const served = await api.call("POST", "/api/v2/builders/integration", {
        key: i % 2 ? a : b,
        body: plan,
      });
      expect(served.status).toBe(200);
    }
    // A request refused as invalid is answered as such and spends nothing, whatever the quota.
    expect((await quote({}, a)).status).toBe(400);
    const query = { tokenIn: token("WETH"), tokenOut: token("USDC"), amountIn: "1000", payer: payer() };
    const response = await api.call("GET", "/api/v2/builders/quote", { key: a, query });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("QUOTA_EXCEEDED");
    // A key without the quote scope is 403 whatever the quota.
    const tokensKey = await api.key(ws.id, ["tokens"]);
    expect((await quote({}, tokensKey)).status).toBe(403);
  });
});
