import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import type { Contracts } from "../config/deployment.ts";
import { PROVIDER_IDS } from "../providers/provider-ids.ts";
import { createAdmission } from "../quote/admission.ts";
import { createBaseApp } from "./base-app.ts";
import { createPartnerApp } from "./partner-app.ts";
import type { ConfigResponseSchema } from "./schemas/config.ts";

type ConfigResponse = z.infer<typeof ConfigResponseSchema>;
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;
const contracts: Contracts = {
  weth9: address(1),
  permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
  v2Factory: address(2),
  v2Router02: address(3),
  v3Factory: address(4),
  v3PositionManager: address(5),
  v3SwapRouter: address(6),
  v3QuoterV2: address(7),
  v4PoolManager: address(8),
  v4PositionManager: address(9),
  v4StateView: address(10),
  v4Quoter: address(11),
  universalRouter: address(12),
  v2PairInitCodeHash: "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
  v3PoolInitCodeHash: "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
  executor: address(13),
  builderRegistry: address(14),
  settlementCollector: address(15),
};
const errors: unknown[] = [];
const app = createBaseApp({
  contracts,
  providers: () => PROVIDER_IDS.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
  latestBlock: async () => 42n,
  logError: (error) => errors.push(error),
  // Validation and admission are decided before the pipeline runs; a search that never ends exercises them.
  quote: () => new Promise(() => {}),
  admission: createAdmission({ concurrency: 1, deadlineMs: 200 }),
});

describe("base app", () => {
  it("serves the public config: chain, contracts, fees, limits and capabilities", async () => {
    const response = await app.request("/api/v2/config");
    expect(response.status).toBe(200);
    const body = (await response.json()) as ConfigResponse;
    expect(body.chainId).toBe(CHAIN_ID);
    expect(body.apiVersion).toBe("2.15.0");
    expect(body.contracts).toEqual(contracts);
    expect(body.nativeToken).toEqual({ address: address(0), symbol: "ETH", decimals: 18 });
    expect(body.fees.maxServiceFeeBps).toBe(50);
    expect(body.fees.transferRouteFeeBps).toBe(20);
    expect(body.fees.disclosure).toHaveLength(5);
    expect(body.limits.quote).toEqual({
      deadlineMs: 25_000,
      concurrency: 4,
      admissionsPerMinute: 60,
      admissionTtlMs: 60_000,
      maxHops: 3,
      maxSplitBranches: 3,
      splitGridBps: 1000,
      splitRefinementBps: 100,
      maxPools: 96,
      maxFallbackV4Probes: 28,
      backupRpcDelayMs: 250,
    });
    expect(body.limits.builder).toMatchObject({ historyPageBlocks: 1000, historyCursorMaxLength: 1500 });
    expect(body.limits.partner).toMatchObject({
      ratePerKeyPerMinute: { quote: 60, tokens: 120 },
      slippageBps: { min: 0, max: 500, default: 50 },
      deadlineSeconds: { max: 3600, default: 600 },
    });
    expect(body.capabilities).toEqual({
      zaps: false,
      deposits: false,
      transferCreation: false,
      submitsTransactions: false,
    });
    expect(body.providers.map((p) => p.id)).toEqual([...PROVIDER_IDS]);
  });

  it("serves the capability flags a client checks before showing a deposit action", async () => {
    const response = await app.request("/api/v2/capabilities");
    expect(await response.json()).toMatchObject({ deposits: false, zaps: false });
  });

  it("answers health with the latest block", async () => {
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", chainId: CHAIN_ID, block: "42" });
  });

  it("reports 503 from health when the node does not answer", async () => {
    const down = createPartnerApp({
      latestBlock: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:8545 (secret-token)")),
      logError: () => {},
    });
    const response = await down.request("/healthz");
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(text).not.toMatch(/ECONNREFUSED|secret/);
  });

  it("answers unknown routes with the structured error body", async () => {
    const response = await app.request("/api/v2/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "NOT_FOUND", message: "no route for GET /api/v2/nope" },
    });
  });

  const USDC = address(0xc0);
  const WETH = contracts.weth9;
  const quoteUrl = (params: Record<string, string>) => `/api/v2/quote?${new URLSearchParams(params)}`;
  const valid = { chainId: String(CHAIN_ID), tokenIn: WETH, tokenOut: USDC, amountIn: "1000" };

  it("rejects bad quote requests with 400 and the offending parameter, before any search", async () => {
    const cases: [Record<string, string>, string, string?][] = [
      [{ ...valid, chainId: "1" }, "UNSUPPORTED_CHAIN"],
      [{ ...valid, tokenOut: WETH }, "IDENTICAL_TOKENS"],
      [{ ...valid, amountIn: "0" }, "INVALID_REQUEST", "amountIn"],
      [{ ...valid, amountIn: "007" }, "INVALID_REQUEST", "amountIn"],
      [{ ...valid, amountIn: (2n ** 256n).toString() }, "INVALID_REQUEST", "amountIn"],
      [{ ...valid, tokenIn: "0x123" }, "INVALID_REQUEST", "tokenIn"],
      [{ ...valid, provider: "uniswap" }, "INVALID_REQUEST", "provider"],
      [{ ...valid, slippage: "5" }, "INVALID_REQUEST"],
      [{ chainId: String(CHAIN_ID), tokenIn: WETH, tokenOut: USDC }, "INVALID_REQUEST", "amountIn"],
    ];
    for (const [params, code, path] of cases) {
      const response = await app.request(quoteUrl(params));
      expect(response.status, JSON.stringify(params)).toBe(400);
      const body = (await response.json()) as { error: { code: string; issues?: { path: string }[] } };
      expect(body.error.code).toBe(code);
      if (path) expect(body.error.issues?.map((i) => i.path)).toContain(path);
    }
  });

  it("answers 429 BUSY with Retry-After when the search slots are taken, and 503 QUOTE_TIMEOUT at the deadline", async () => {
    const first = app.request(quoteUrl(valid));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const busy = await app.request(quoteUrl({ ...valid, amountIn: "2000" }));
    expect(busy.status).toBe(429);
    expect(busy.headers.get("Retry-After")).toBe("2");
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("BUSY");
    const timedOut = await first;
    expect(timedOut.status).toBe(503);
    expect(((await timedOut.json()) as { error: { code: string } }).error.code).toBe("QUOTE_TIMEOUT");
  });

  it("publishes an OpenAPI 3.1 document, version 2.15.0, covering its routes", async () => {
    const response = await app.request("/openapi.json");
    const doc = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("2.15.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v2/config", "/api/v2/capabilities", "/healthz"]),
    );
    expect(doc.components.schemas.Config).toBeDefined();
    const page = await app.request("/docs");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/openapi\.json/);
  });
});
