import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { PLANS } from "../../../auth/plans.ts";
import { createAdmission } from "../../../quote/admission.ts";

/**
 * `GET /api/v2/builders/usage`: the workspace, its plan's limits, and counters that move with requests to
 * the tokens and quote buckets (shared by the workspace's keys, this request included).
 */
let devnet: TestDevnet;
let api: BuilderTestApi;

const PATH = "/api/v2/builders/usage";

type Usage = {
  workspace: { id: string; name: string; builderCode: string | null; plan: string; activated: boolean };
  limits: Record<string, number>;
  usage: { quote: number; receipts: number; tokens: number; swap: number; hourly: number };
  windows: { minuteResetsAt: string; hourResetsAt: string };
};

async function usage(key: string): Promise<Usage> {
  const response = await api.call("GET", PATH, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as Usage;
}

/** Runs `between` between two usage reads, again if a minute window turned over meanwhile. */
async function measure(key: string, between: () => Promise<void>) {
  for (let attempt = 0; ; attempt++) {
    const before = await usage(key);
    await between();
    const after = await usage(key);
    if (after.windows.minuteResetsAt === before.windows.minuteResetsAt || attempt === 2)
      return { before, after };
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
});

afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

describe("GET /api/v2/builders/usage", () => {
  it("describes the workspace, its limits and the current windows, counting this request", async () => {
    const workspace = await api.workspace();
    const key = await api.key(workspace.id, ["tokens"]);
    const started = Date.now();
    const body = await usage(key);
    expect(body.workspace).toEqual({
      id: workspace.id,
      name: workspace.code,
      builderCode: workspace.code,
      plan: "free",
      activated: true,
    });
    expect(body.limits).toEqual(PLANS.free);
    expect(body.usage).toEqual({ quote: 0, receipts: 0, tokens: 1, swap: 0, hourly: 1 });
    const minute = Date.parse(body.windows.minuteResetsAt);
    const hour = Date.parse(body.windows.hourResetsAt);
    expect(minute % 60_000).toBe(0);
    expect(hour % 3_600_000).toBe(0);
    expect(minute).toBeGreaterThan(started - 5_000);
    expect(minute).toBeLessThanOrEqual(started + 65_000);
    expect(hour).toBeGreaterThanOrEqual(minute);
  });

  it("moves with the workspace's requests, across its keys and buckets", async () => {
    const workspace = await api.workspace({ code: "junction-demo", plan: "growth" });
    const tokensKey = await api.key(workspace.id, ["tokens"]);
    const quoteKey = await api.key(workspace.id, ["quote"]);
    const { before, after } = await measure(tokensKey, async () => {
      expect((await api.call("GET", "/api/v2/builders/tokens", { key: tokensKey })).status).toBe(200);
      const plan = await api.call("POST", "/api/v2/builders/integration", {
        key: quoteKey,
        body: {
          action: "multi-plan",
          input: {
            execution: "sequential",
            payer: devnet.manifest.accounts[3]!.address,
            inputs: [{ token: devnet.manifest.tokens[0]!.address, amount: "1000" }],
            outputs: [{ token: devnet.manifest.tokens[1]!.address, weightBps: 10_000 }],
          },
        },
      });
      expect(plan.status).toBe(200);
    });
    expect(after.limits).toEqual(PLANS.growth);
    expect(after.workspace.plan).toBe("growth");
    // tokens: the tokens call and the second usage read; quote: the plan; hourly: all three.
    expect(after.usage.tokens - before.usage.tokens).toBe(2);
    expect(after.usage.quote - before.usage.quote).toBe(1);
    expect(after.usage.hourly - before.usage.hourly).toBe(3);
    expect(after.usage.receipts).toBe(0);
  });

  it("spends quota only on requests it serves: not on invalid, other-chain, zap or BUSY ones", async () => {
    const workspace = await api.workspace();
    const tokensKey = await api.key(workspace.id, ["tokens"]);
    const key = await api.key(workspace.id, ["quote", "receipts"]);
    const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
    const quote = {
      tokenIn: token("WETH"),
      tokenOut: token("USDC"),
      amountIn: "1000000000000000000",
      payer: devnet.manifest.accounts[3]!.address,
    };
    const plan = (action: string) => ({
      action,
      input: {
        execution: "sequential",
        payer: quote.payer,
        inputs: [{ token: quote.tokenIn, amount: "1000" }],
        outputs: [{ token: quote.tokenOut, weightBps: 10_000 }],
      },
    });
    const code = async (response: Response) =>
      `${response.status} ${((await response.json()) as { error?: { code: string } }).error?.code ?? "ok"}`;
    const admission = api.deps.admission;
    const { before, after } = await measure(tokensKey, async () => {
      const tokens = (query: Record<string, string>) =>
        api.call("GET", "/api/v2/builders/tokens", { key: tokensKey, query });
      expect(await code(await tokens({ address: "0x12" }))).toBe("400 INVALID_REQUEST");
      expect(await code(await tokens({ chainId: "1" }))).toBe("400 UNSUPPORTED_CHAIN");
      expect(await code(await tokens({ chainId: "4663" }))).toBe("200 ok");

      const builderQuote = (query: Record<string, string>) =>
        api.call("GET", "/api/v2/builders/quote", { key, query });
      expect(await code(await builderQuote({ ...quote, amountIn: "0" }))).toBe("400 INVALID_REQUEST");
      expect(await code(await builderQuote({ ...quote, tokenOut: quote.tokenIn }))).toBe(
        "400 INVALID_REQUEST",
      );
      expect(await code(await builderQuote({ ...quote, chainId: "1" }))).toBe("400 UNSUPPORTED_CHAIN");
      api.deps.admission = createAdmission({ concurrency: 0 });
      const busy = await builderQuote(quote);
      api.deps.admission = admission;
      expect(busy.headers.get("retry-after")).toBe("2");
      expect(await code(busy)).toBe("429 BUSY");
      expect(await code(await builderQuote({ ...quote, chainId: "4663" }))).toBe("200 ok");

      const integration = (body: unknown) => api.call("POST", "/api/v2/builders/integration", { key, body });
      expect(await code(await integration(plan("zap")))).toBe("503 ZAPS_DISABLED");
      expect(await code(await integration(plan("deposit")))).toBe("503 ZAPS_DISABLED");
      expect(await code(await integration({ ...plan("multi-plan"), extra: 1 }))).toBe("400 INVALID_REQUEST");

      const receipt = await api.call("POST", "/api/v2/builders/receipts", {
        key,
        body: { quoteId: "0x12", hash: "0x34" },
      });
      expect(await code(receipt)).toBe("400 INVALID_REQUEST");
      const history = await api.call("GET", "/api/v2/builders/history", { key, query: { code: "a" } });
      expect(await code(history)).toBe("400 INVALID_REQUEST");
    });
    // tokens: the chainId=4663 lookup and the second usage read; quote: the one quote served.
    expect(after.usage.tokens - before.usage.tokens).toBe(2);
    expect(after.usage.quote - before.usage.quote).toBe(1);
    expect(after.usage.receipts - before.usage.receipts).toBe(0);
    expect(after.usage.hourly - before.usage.hourly).toBe(3);
  });

  it("is 400 for any query parameter", async () => {
    const workspace = await api.workspace();
    const key = await api.key(workspace.id, ["tokens"]);
    const response = await api.call("GET", PATH, { key, query: { workspace: "other" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  });

  it("needs a live key with the tokens scope", async () => {
    expect((await api.call("GET", PATH)).status).toBe(401);
    const workspace = await api.workspace();
    const response = await api.call("GET", PATH, { key: await api.key(workspace.id, ["receipts"]) });
    expect(response.status).toBe(403);
  });
});
