import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../../test/rpc-proxy.ts";
import { startStandInProviders } from "../../../test/stand-in-providers.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { createFollowedState } from "../../liquidity/followed-state/follow-state.ts";
import { createPoolIndex } from "../../liquidity/pool-index/pool-index.ts";
import { QUOTE_SOURCES } from "../../providers/quote-sources.ts";
import { createAdmission } from "../../quote/admission.ts";
import { createQuoter } from "../../quote/create-quoter.ts";
import { createFixtures } from "../../simulation/fixtures.ts";
import { createBaseApp } from "../base-app.ts";

/**
 * The public quote against a real node seen through a proxy that can make it misbehave the way real nodes
 * do: every failure a client could not cause is a 503 with a closed reason, never a 500 or the node's words.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
let app: ReturnType<typeof createBaseApp>;
let client: ReturnType<typeof createChainClient>;
let index: ReturnType<typeof createPoolIndex>;
const internal: unknown[] = [];
const admission = createAdmission({ perMinute: 10_000 });

beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
  const { contracts } = devnet.manifest;
  // The service's own client: coalescing, and each call bounded by its request's budget.
  client = createChainClient({ url: proxy.url, kind: "private" });
  index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  app = createBaseApp({
    contracts,
    providers: () =>
      QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
    latestBlock: () => client.getBlockNumber(),
    logError: (error) => internal.push(error),
    quote: createQuoter({ client, index, contracts, fixtures: createFixtures(client) }),
    admission,
  });
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const quote = (amountIn: string, tokenIn: string = zeroAddress, tokenOut: string = token("USDC")) =>
  app.request(`/api/v2/quote?${new URLSearchParams({ chainId: "4663", tokenIn, tokenOut, amountIn })}`);

type ErrorBody = { error: { code: string; message: string; reason?: string } };

describe("public quote: upstream failures are 503 with a closed reason", () => {
  it("quotes through the proxy while the node behaves", async () => {
    proxy.mode = { kind: "pass" };
    const response = await quote("1000000000000000000", token("LINK"), token("DAI"));
    expect(response.status).toBe(200);
    // One spelling for every address and hash in the body, route hops included: lowercase.
    const body = await response.text();
    expect(body).toMatch(/"tokenIn":"0x[0-9a-f]{40}"/);
    expect(body.match(/0x[0-9a-fA-F]{40}/g)?.filter((hex) => hex !== hex.toLowerCase())).toEqual([]);
  });

  it("answers 503 gas-price-unavailable when neither the suggestion nor the base fee is positive", async () => {
    proxy.mode = {
      kind: "rewrite",
      rewrite: (method, _params, result) => {
        if (method === "eth_gasPrice") return "0x0";
        if (method === "eth_getBlockByNumber" && result)
          return { ...(result as object), baseFeePerGas: "0x0" };
        return result;
      },
    };
    const response = await quote("1000000000000000000");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: {
        code: "UPSTREAM_UNAVAILABLE",
        reason: "gas-price-unavailable",
        message: "the chain node gave no positive gas price; the quote cannot be assessed",
      },
    });
  });

  it("answers 503 block-pending when the node's latest block has no number or hash yet", async () => {
    proxy.mode = {
      kind: "rewrite",
      rewrite: (method, params, result) =>
        method === "eth_getBlockByNumber" && params[0] === "latest" && result
          ? { ...(result as object), number: null, hash: null }
          : result,
    };
    const response = await quote("1000000000000000000");
    expect(response.status).toBe(503);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      reason: "block-pending",
    });
  });

  it("answers 409 BLOCK_REORGED when the quote block stopped being canonical while candidates were assessed", async () => {
    // The node now names another block at the quote block's height: a reorg replaced it.
    proxy.mode = {
      kind: "rewrite",
      rewrite: (method, params, result) =>
        method === "eth_getBlockByNumber" && params[0] !== "latest" && result
          ? { ...(result as object), hash: `0x${"ab".repeat(32)}` }
          : result,
    };
    const response = await quote("1000000000000000000", token("LINK"), token("DAI"));
    expect(response.status).toBe(409);
    expect(((await response.json()) as ErrorBody).error.code).toBe("BLOCK_REORGED");
  });

  it("answers 503 rpc-unavailable without the node's words when it fails", async () => {
    proxy.mode = { kind: "http-error", status: 502 };
    const response = await quote("1000000000000000000");
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text).error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", reason: "rpc-unavailable" });
    expect(text).not.toContain("upstream unavailable");
    expect(text).not.toContain(proxy.url);
  });

  it("fails fast with 503 when the node freezes, frees every search slot, and recovers without a restart", async () => {
    // The node accepts requests and never answers (the proxy holds them): each quote's first chain call
    // hits its per-call deadline (4 s), not the client library's own timeout, and its slot is freed.
    proxy.mode = { kind: "delay", ms: 30_000 };
    const frozen = await Promise.all(
      ["1", "2", "3", "4"].map((n) => quote(`${n}000000000000000000`, zeroAddress, token("DAI"))),
    );
    for (const response of frozen) {
      expect(response.status).toBe(503);
      expect(((await response.json()) as ErrorBody).error).toMatchObject({ reason: "rpc-unavailable" });
    }
    expect(admission.active()).toBe(0);
    proxy.mode = { kind: "pass" };
    const thawed = await quote("5000000000000000000", zeroAddress, token("DAI"));
    expect(thawed.status).toBe(200);
  });

  it("answers 503 one per-call deadline after its search when the node freezes while the providers are slow", async () => {
    // The quote block, pools and token layouts come from followed state and a warm quote: nothing asks the
    // node before the simulations, which wait only a moment for providers that take their whole deadline.
    proxy.mode = { kind: "pass" };
    const standIns = await startStandInProviders(devnet);
    try {
      const { contracts } = devnet.manifest;
      const followed = createFollowedState({
        client,
        pools: () => index.pools(),
        ...(contracts.v4PoolManager ? { poolManager: contracts.v4PoolManager } : {}),
        staleAfterMs: 600_000,
      });
      await followed.step();
      const providerDeadlineMs = 8_000;
      const slow = createBaseApp({
        contracts,
        providers: () => QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: true })),
        latestBlock: () => client.getBlockNumber(),
        logError: (error) => internal.push(error),
        quote: createQuoter({
          client,
          index,
          contracts,
          fixtures: createFixtures(client),
          followed,
          providers: [standIns.aggregatorA, standIns.aggregatorB],
          providerDeadlineMs,
        }),
        admission: createAdmission({ perMinute: 10_000 }),
      });
      const ask = () =>
        slow.request(
          `/api/v2/quote?${new URLSearchParams({ chainId: "4663", tokenIn: zeroAddress, tokenOut: token("DAI"), amountIn: "1000000000000000000" })}`,
        );
      expect((await ask()).status).toBe(200);
      await standIns.fault("aggregator-a", "slow");
      await standIns.fault("aggregator-b", "slow");
      proxy.mode = { kind: "delay", ms: 30_000 };
      const started = Date.now();
      const frozen = await ask();
      const elapsed = Date.now() - started;
      expect(frozen.status).toBe(503);
      expect(((await frozen.json()) as ErrorBody).error).toMatchObject({ reason: "rpc-unavailable" });
      // Waiting for the providers first would take their deadline and then the node's 4 s.
      expect(elapsed).toBeLessThan(providerDeadlineMs);
    } finally {
      proxy.mode = { kind: "pass" };
      await standIns.close();
    }
  });

  it("answers a node's rate limit at once with 503 rpc-rate-limited and Retry-After, and quotes again after it", async () => {
    proxy.mode = { kind: "pass" };
    // Warm: the pair's reads are known, so the next quote's first request is its simulations.
    expect((await quote("1000000000000000000", token("LINK"), token("DAI"))).status).toBe(200);
    proxy.limits = { throttle: { times: 1, retryAfter: 2 } };
    const started = Date.now();
    const limited = await quote("2000000000000000000", token("LINK"), token("DAI"));
    expect(limited.status).toBe(503);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(((await limited.json()) as ErrorBody).error).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      reason: "rpc-rate-limited",
    });
    // During the backoff a quote is refused before it reaches the node.
    const sent = proxy.requests;
    const refused = await quote("3000000000000000000", token("LINK"), token("DAI"));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(proxy.requests).toBe(sent);
    // Background work waits the backoff out instead, and then the node is asked again.
    expect(await client.getChainId()).toBe(4663);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect((await quote("4000000000000000000", token("LINK"), token("DAI"))).status).toBe(200);
    // Without Retry-After: a backoff of about a second (jittered), then quotes again.
    proxy.limits = { throttle: { times: 1 } };
    const again = await quote("5000000000000000000", token("LINK"), token("DAI"));
    expect(again.status).toBe(503);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await client.getChainId();
    expect((await quote("6000000000000000000", token("LINK"), token("DAI"))).status).toBe(200);
    expect(internal).toEqual([]);
  });

  it("answers an input past every pool's integer range as no route, not a 500", async () => {
    proxy.mode = { kind: "pass" };
    for (const amountIn of [2n ** 127n, 2n ** 200n, 2n ** 256n - 1n]) {
      const response = await quote(amountIn.toString());
      expect(response.status, String(amountIn)).toBe(422);
      expect(((await response.json()) as ErrorBody).error.code).toMatch(/^(NO_ROUTE|NO_EXECUTABLE_ROUTE)$/);
    }
    expect(internal).toEqual([]);
  });
});
