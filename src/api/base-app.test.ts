import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import type { Contracts } from "../config/deployment.ts";
import { QUOTE_SOURCES } from "../providers/quote-sources.ts";
import { createAdmission } from "../quote/admission.ts";
import { createBaseApp } from "./base-app.ts";
import { createApp } from "./create-app.ts";
import { createPartnerApp } from "./partner-app.ts";
import { registerHealthRoute } from "./routes/health.ts";
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
  providers: () =>
    QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
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
      providerDeadlineMs: 2500,
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
    expect(body.providers.map((p) => p.id)).toEqual([...QUOTE_SOURCES]);
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

  it("reports 503 from health when the node hangs past the deadline, instead of hanging too", async () => {
    const frozen = createApp(() => {});
    registerHealthRoute(frozen, () => new Promise<bigint>(() => {}), 50);
    const response = await frozen.request("/healthz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "degraded", chainId: CHAIN_ID, block: null });
  });

  it("answers unknown routes with the structured error body", async () => {
    const response = await app.request("/api/v2/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "NOT_FOUND", message: "no route for GET /api/v2/nope" },
    });
  });

  it("echoes no more than a bounded part of a long path", async () => {
    const response = await app.request(`/api/v2/${"x".repeat(8192)}`);
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).toContain("(8200 characters)");
  });

  it("answers a body over 64 KiB with 413 PAYLOAD_TOO_LARGE before reading it", async () => {
    const response = await app.request("/api/v2/builders/integration", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "x".repeat(70_000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "PAYLOAD_TOO_LARGE", message: "the request body exceeds 65536 bytes" },
    });
  });

  it("lets any web page read the keyless GETs, and grants no preflight anywhere else", async () => {
    const preflight = (path: string) =>
      app.request(path, {
        method: "OPTIONS",
        headers: { origin: "https://wallet.example", "access-control-request-method": "GET" },
      });
    for (const path of ["/api/v2/quote", "/api/v2/config", "/api/v2/capabilities", "/healthz"]) {
      const response = await preflight(path);
      expect(response.status, path).toBe(204);
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    const config = await app.request("/api/v2/config", { headers: { origin: "https://wallet.example" } });
    expect(config.headers.get("access-control-allow-origin")).toBe("*");
    for (const path of ["/api/v2/builders/quote", "/api/v2/builders/integration"]) {
      const response = await preflight(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });

  it("sends security headers and no-store on every response", async () => {
    for (const path of ["/api/v2/config", "/api/v2/nope"]) {
      const response = await app.request(path);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
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
  });

  it("serves the reference page and its assets itself, loading nothing from another host", async () => {
    const page = await app.request("/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources).toEqual(["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"]);
    expect(html).not.toMatch(/https?:\/\//);
    for (const path of sources) {
      const asset = await app.request(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=86400");
      expect((await asset.text()).length).toBeGreaterThan(path.endsWith("init.js") ? 20 : 10_000);
    }
    expect(await (await app.request("/docs/init.js")).text()).toContain('url: "/openapi.json"');
  });
});
