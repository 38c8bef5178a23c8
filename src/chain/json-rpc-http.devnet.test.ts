import { type Address, type Hex, HttpRequestError, parseEther, toHex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../quote/create-quoter.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createChainClient, type RpcSettings } from "./create-chain-client.ts";
import type { BatchLimitChange } from "./json-rpc-http.ts";

/**
 * The node transport against a proxy with a hosted node's limits (batches refused, batches capped, bodies
 * capped): every call is answered whatever the node refuses, the limit is learned from the first refusal
 * and told once, and later requests stay within it.
 */
let devnet: TestDevnet;
let proxy: RpcProxy;
beforeAll(async () => {
  devnet = await startTestDevnet();
  proxy = await startRpcProxy(devnet.rpcUrl);
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.dispose();
});
afterEach(() => {
  proxy.limits = {};
  proxy.mode = { kind: "pass" };
});

function client(settings: Partial<RpcSettings> = {}) {
  const learned: BatchLimitChange[] = [];
  const missing: string[] = [];
  const chain = createChainClient(
    { url: proxy.url, kind: "private", ...settings },
    { onBatchLimits: (change) => learned.push(change), onMissingMethod: (method) => missing.push(method) },
  );
  return { chain, learned, missing };
}

/** The quote pipeline over `chain`, its pool index synced, and a WETH → USDC request of `amountIn`. */
async function quoterOn(chain: ReturnType<typeof client>["chain"]) {
  const contracts = devnet.manifest.contracts;
  const index = createPoolIndex({
    client: chain,
    contracts,
    fromBlock: BigInt(devnet.manifest.deploymentBlock),
  });
  await index.sync();
  const quote = createQuoter({ client: chain, index, contracts, fixtures: createFixtures(chain) });
  const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
  return (amountIn: bigint) =>
    quote({ tokenIn: contracts.weth9, tokenOut: usdc, amountIn }, new AbortController().signal);
}

/** `n` distinct reads made in one turn of the event loop (they would travel as one batch). */
const balances = (chain: ReturnType<typeof client>["chain"], n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => chain.getBalance({ address: toHex(i + 1, { size: 20 }) as Address })),
  );

/** What the proxy saw while `work` ran. */
async function seen<T>(work: () => Promise<T>) {
  const before = { requests: proxy.requests, refused: proxy.refused, calls: proxy.calls.length };
  const value = await work();
  return {
    value,
    requests: proxy.requests - before.requests,
    refused: proxy.refused - before.refused,
    calls: proxy.calls.length - before.calls,
  };
}

describe("JSON-RPC over HTTP within the node's limits", () => {
  it("sends single calls once the node refuses batches, failing nothing, and says so once", async () => {
    proxy.limits = { batches: "refused" };
    const { chain, learned } = client();
    // A lone call is a plain object, which such a node takes: nothing to learn.
    expect(await chain.getChainId()).toBe(4663);
    expect(learned).toEqual([]);
    const first = await seen(() => balances(chain, 6));
    expect(first.value).toHaveLength(6);
    expect(first.refused).toBeGreaterThan(0);
    expect(learned.map((change) => change.limits.calls)).toEqual(expect.arrayContaining([1]));
    expect(learned.at(-1)!.message).toMatch(/^rpc: batches refused, sending single calls/);
    const after = await seen(() => balances(chain, 6));
    expect(after).toMatchObject({ refused: 0, requests: 6, calls: 6 });
    expect(learned.filter((change) => change.limits.calls === 1)).toHaveLength(1);
  });

  it("keeps batches within a node's cap once it refuses a longer one", async () => {
    proxy.limits = { batches: 10 };
    const { chain, learned } = client();
    const first = await seen(() => balances(chain, 25));
    expect(first.value).toHaveLength(25);
    const cap = learned.at(-1)!.limits.calls;
    expect(cap).toBeLessThanOrEqual(10);
    expect(cap).toBeGreaterThan(1);
    const after = await seen(() => balances(chain, 25));
    expect(after).toMatchObject({ refused: 0, requests: Math.ceil(25 / cap) });
  });

  it("starts without batches when told (JUNCTION_RPC_MAX_BATCH=1), and within a cap when given one", async () => {
    proxy.limits = { batches: "refused" };
    const single = client({ maxBatch: 1 });
    expect(await seen(() => balances(single.chain, 5))).toMatchObject({ refused: 0, requests: 5 });
    proxy.limits = { batches: 4 };
    const capped = client({ maxBatch: 4 });
    expect(await seen(() => balances(capped.chain, 10))).toMatchObject({ refused: 0, requests: 3 });
    expect([...single.learned, ...capped.learned]).toEqual([]);
  });

  it("keeps request bodies under a node's body limit once it refuses a large one", async () => {
    proxy.limits = { bodyBytes: 400_000 };
    const { chain, learned } = client();
    // Twelve calls of ~48 KB of calldata each: one ~580 KB batch, over the node's limit.
    const data = (i: number): Hex => `0x${i.toString(16).padStart(2, "0").repeat(24_000)}`;
    const calls = () =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          chain.call({ to: devnet.manifest.contracts.weth9, data: data(i) }).catch(() => "reverted"),
        ),
      );
    const first = await seen(calls);
    expect(first.value).toHaveLength(12);
    expect(first.refused).toBe(1);
    expect(learned.map((change) => change.message)).toEqual([
      expect.stringMatching(/^rpc: the node refused a \d+-byte batch; keeping batches under \d+ bytes/),
    ]);
    expect(learned[0]!.limits.bytes).toBeLessThan(400_000);
    expect((await seen(calls)).refused).toBe(0);
  });

  it("reads a 413 as a body limit however small the batch, and keeps batching under it", async () => {
    proxy.limits = { bodyBytes: 70_000 };
    const { chain, learned } = client();
    // Twelve calls of ~10 KB each: one ~120 KB batch, too large for the node but under the size a plain
    // refusal is taken to be about the body.
    const data = (i: number): Hex => `0x${i.toString(16).padStart(2, "0").repeat(5_000)}`;
    const calls = () =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          chain.call({ to: devnet.manifest.contracts.weth9, data: data(i) }).catch(() => "reverted"),
        ),
      );
    expect((await seen(calls)).value).toHaveLength(12);
    expect(learned.map((change) => change.message)).toEqual([
      expect.stringMatching(/^rpc: the node refused a \d+-byte batch; keeping batches under \d+ bytes/),
    ]);
    expect(learned[0]!.limits.calls).toBeGreaterThan(1);
    const again = await seen(calls);
    expect(again.refused).toBe(0);
    expect(again.requests).toBeLessThan(12);
  });

  it("fails only the calls of a request the node refuses for what it is, not for being a batch", async () => {
    proxy.limits = { bodyBytes: 5_000 };
    const { chain } = client({ maxBatch: 1 });
    const big = chain.call({ to: devnet.manifest.contracts.weth9, data: `0x${"00".repeat(6_000)}` });
    const [small, refused] = await Promise.allSettled([chain.getChainId(), big]);
    expect(small).toEqual({ status: "fulfilled", value: 4663 });
    expect(refused.status).toBe("rejected");
    // The transport's error names the method and the node's origin, never the calldata.
    let cause: unknown = (refused as PromiseRejectedResult).reason;
    while (cause && !(cause instanceof HttpRequestError)) cause = (cause as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(HttpRequestError);
    expect((cause as HttpRequestError).status).toBe(413);
    expect((cause as HttpRequestError).message).not.toMatch(/0{200}/);
  });

  it("quotes in as many round trips on a node without batches as on one with them, its calls concurrent", async () => {
    /** A warm quote's count (the second of the pair: token layouts learned, the index synced). */
    const warmQuote = async (settings: Partial<RpcSettings>) => {
      const quote = await quoterOn(client(settings).chain);
      await quote(parseEther("1"));
      return quote(parseEther("1"));
    };
    const batched = await warmQuote({});
    proxy.limits = { batches: "refused" };
    const refusedBefore = proxy.refused;
    const single = await warmQuote({ maxBatch: 1 });
    expect(single.selected.simulation.status).toBe("simulated");
    expect(single.selected.amountOut).toBe(batched.selected.amountOut);
    expect(batched.rpc.requests).toBeLessThan(batched.rpc.calls);
    // No batch: one request per call, in the same round trips.
    expect(single.rpc.requests).toBe(single.rpc.calls);
    expect(single.rpc.roundTrips).toBe(batched.rpc.roundTrips);
    expect(proxy.refused - refusedBefore).toBe(0);
  });

  it("says once which method the node lacks, and quotes without it", async () => {
    proxy.mode = {
      kind: "refuse",
      refuse: (method) =>
        method === "eth_simulateV1"
          ? { code: -32601, message: "the method eth_simulateV1 does not exist" }
          : undefined,
    };
    const { chain, missing } = client();
    const quote = await quoterOn(chain);
    for (const amountIn of [parseEther("1"), parseEther("2")])
      expect((await quote(amountIn)).selected.simulation.status).toBe("simulated");
    expect(missing).toEqual(["eth_simulateV1"]);
  });
});
