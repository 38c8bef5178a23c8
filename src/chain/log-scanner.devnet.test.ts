import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { poolRef } from "../liquidity/pool-index/pool.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { junctionChain } from "./chain.ts";
import { createLogScanner } from "./log-scanner.ts";

/**
 * Log scans against a real node behind a proxy that enforces the limits public RPC providers do: the pool
 * index must find exactly what it finds on an unlimited node, shrinking its ranges to fit, retrying
 * transient refusals, and failing on a deterministic one.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
let client: PublicClient;
let expected: string[];

beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
  client = createPublicClient({
    chain: junctionChain(proxy.url),
    transport: http(proxy.url, { retryCount: 0 }),
    cacheTime: 0,
  }) as PublicClient;
  const direct = createPoolIndex({
    client: devnet.publicClient,
    contracts: devnet.manifest.contracts,
    fromBlock: 0n,
  });
  await direct.sync();
  expected = direct.pools().map(poolRef).sort();
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});

type LogFilter = { fromBlock: string; toBlock: string };
const span = (params: unknown[]) => {
  const filter = params[0] as LogFilter;
  return Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n);
};
const indexThroughProxy = () =>
  createPoolIndex({ client, contracts: devnet.manifest.contracts, fromBlock: 0n });

describe("log scans within a node's limits", () => {
  it("shrinks ranges a node refuses (block range and result limits) and finds every pool", async () => {
    expect(expected.length).toBeGreaterThan(10);
    const spans: number[] = [];
    proxy.mode = {
      kind: "refuse",
      refuse: (method, params) => {
        if (method !== "eth_getLogs") return undefined;
        spans.push(span(params));
        if (span(params) > 100) return { code: -32602, message: "block range too large (max 100)" };
        if (span(params) > 20 && BigInt((params[0] as LogFilter).fromBlock) < 100n)
          return { code: -32005, message: "query returned more than 10000 results" };
        return undefined;
      },
    };
    const index = indexThroughProxy();
    await index.sync();
    expect(index.pools().map(poolRef).sort()).toEqual(expected);
    // The whole chain at first (it is shorter than the initial range), then halves until the node agrees.
    expect(spans[0]).toBe(Number(await client.getBlockNumber()) + 1);
    expect(spans[0]).toBeGreaterThan(100);
    expect(Math.min(...spans)).toBeLessThanOrEqual(20);
  });

  it("retries transient refusals (429, 503) of the same range with backoff", async () => {
    let refusals = 0;
    proxy.mode = {
      kind: "refuse",
      refuse: (method) =>
        method === "eth_getLogs" && refusals < 3 ? { status: [429, 503, 503][refusals++]! } : undefined,
    };
    const index = indexThroughProxy();
    await index.sync();
    expect(refusals).toBe(3);
    expect(index.pools().map(poolRef).sort()).toEqual(expected);
  });

  it("fails on a refusal that no smaller range cures, and on transient trouble past its attempts", async () => {
    proxy.mode = {
      kind: "refuse",
      refuse: (method) =>
        method === "eth_getLogs" ? { code: -32000, message: "filter not supported" } : undefined,
    };
    await expect(indexThroughProxy().sync()).rejects.toThrow();
    proxy.mode = {
      kind: "refuse",
      refuse: (method) => (method === "eth_getLogs" ? { status: 503 } : undefined),
    };
    const scanner = createLogScanner({ initial: 10n, max: 10n, attempts: 3, backoffMs: 1 });
    let reads = 0;
    await expect(
      scanner.scan(0n, 5n, (fromBlock, toBlock) => {
        reads++;
        return client.getLogs({ fromBlock, toBlock });
      }),
    ).rejects.toThrow();
    expect(reads).toBe(3);
    proxy.mode = { kind: "pass" };
  });

  it("grows its range again on a node that allows it", async () => {
    proxy.mode = { kind: "pass" };
    const scanner = createLogScanner({ initial: 16n, max: 256n, attempts: 1, backoffMs: 0 });
    const tip = await client.getBlockNumber();
    await scanner.scan(0n, tip, (fromBlock, toBlock) => client.getLogs({ fromBlock, toBlock }));
    expect(scanner.range()).toBe(256n);
  });
});
