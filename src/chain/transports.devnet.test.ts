import { createPublicClient, encodeFunctionData, http } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { CHAIN_ID, junctionChain } from "./chain.ts";
import { type CoalescingStats, coalescingTransport } from "./coalescing-transport.ts";
import { createChainClient } from "./create-chain-client.ts";
import { hedgedTransport } from "./hedged-transport.ts";

let devnet: TestDevnet;
let primary: RpcProxy;
let backup: RpcProxy;
beforeAll(async () => {
  devnet = await startTestDevnet();
  primary = await startRpcProxy(devnet.rpcUrl);
  backup = await startRpcProxy(devnet.rpcUrl);
});
afterAll(async () => {
  await primary?.close();
  await backup?.close();
  await devnet?.dispose();
});
afterEach(() => {
  primary.mode = { kind: "pass" };
  backup.mode = { kind: "pass" };
  primary.calls.length = 0;
  backup.calls.length = 0;
});

function hedgedClient(events: { answeredBy: string; backupStarted: boolean }[] = []) {
  return createPublicClient({
    chain: junctionChain(primary.url),
    transport: hedgedTransport({
      primary: http(primary.url, { retryCount: 0 }),
      backup: http(backup.url, { retryCount: 0 }),
      delayMs: 250,
      onSettled: (event) => events.push(event),
    }),
    cacheTime: 0,
  });
}

describe("public transport with one backup (rule 15)", () => {
  it("never touches the backup while the primary answers within 250 ms", async () => {
    primary.mode = { kind: "delay", ms: 50 };
    const events: { answeredBy: string; backupStarted: boolean }[] = [];
    expect(await hedgedClient(events).getChainId()).toBe(CHAIN_ID);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(backup.calls).toEqual([]);
    expect(events).toEqual([{ method: "eth_chainId", answeredBy: "primary", backupStarted: false }]);
  });

  it("asks the backup once the primary is silent for 250 ms, and takes its answer", async () => {
    primary.mode = { kind: "delay", ms: 1_500 };
    const events: { answeredBy: string; backupStarted: boolean }[] = [];
    const started = performance.now();
    expect(await hedgedClient(events).getBlockNumber()).toBeGreaterThan(0n);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(backup.calls).toEqual(["eth_blockNumber"]);
    expect(events[0]).toMatchObject({ answeredBy: "backup", backupStarted: true });
  });

  it("goes to the backup at once when the primary fails transiently", async () => {
    primary.mode = { kind: "http-error", status: 503 };
    const events: { answeredBy: string; backupStarted: boolean }[] = [];
    expect(await hedgedClient(events).getChainId()).toBe(CHAIN_ID);
    expect(events[0]).toMatchObject({ answeredBy: "backup", backupStarted: true });
  });

  it("fails closed on a deterministic rejection: the revert is final, the backup is never asked", async () => {
    const client = hedgedClient();
    // transfer() of more than the caller holds reverts in the token itself.
    const token = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const call = client.call({
      to: token,
      account: "0x000000000000000000000000000000000000dEaD",
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [token, 1n] }),
    });
    await expect(call).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(backup.calls).toEqual([]);
  });

  it("fails when both endpoints fail transiently", async () => {
    primary.mode = { kind: "http-error", status: 502 };
    backup.mode = { kind: "rpc-error", code: -32005 };
    await expect(hedgedClient().getChainId()).rejects.toThrow();
    expect(backup.calls).toEqual(["eth_chainId"]);
  });
});

describe("private transport", () => {
  it("has no fallback: a silent primary is waited for, never bypassed", async () => {
    primary.mode = { kind: "delay", ms: 600 };
    const client = createChainClient({ url: primary.url, kind: "private" });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(backup.calls).toEqual([]);
  });
});

describe("JSON-RPC batches", () => {
  it("sends calls made together as one request; a call the node refuses fails alone", async () => {
    const client = createChainClient({ url: primary.url, kind: "private" });
    const address = devnet.manifest.accounts[1]!.address;
    const sent = primary.requests;
    primary.mode = {
      kind: "refuse",
      refuse: (method) => (method === "eth_getBalance" ? { code: -32000, message: "refused" } : undefined),
    };
    const [chainId, balance, gasPrice] = await Promise.allSettled([
      client.getChainId(),
      client.getBalance({ address }),
      client.getGasPrice(),
    ]);
    expect(primary.requests - sent).toBe(1);
    expect(primary.calls).toEqual(["eth_chainId", "eth_getBalance", "eth_gasPrice"]);
    expect(chainId).toEqual({ status: "fulfilled", value: CHAIN_ID });
    expect(balance.status).toBe("rejected");
    expect(gasPrice.status).toBe("fulfilled");
  });

  it("fails every call of a batch whose request fails, each as the node's failure", async () => {
    const client = createChainClient({ url: primary.url, kind: "private" });
    primary.mode = { kind: "http-error", status: 503 };
    const outcomes = await Promise.allSettled([client.getChainId(), client.getGasPrice()]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(primary.calls).toHaveLength(2);
  });

  it("sends calls made one after another as separate requests", async () => {
    const client = createChainClient({ url: primary.url, kind: "private" });
    const sent = primary.requests;
    await client.getChainId();
    await client.getGasPrice();
    expect(primary.requests - sent).toBe(2);
  });
});

describe("in-flight coalescing (rule 14)", () => {
  function coalescedClient(stats: CoalescingStats) {
    return createPublicClient({
      chain: junctionChain(primary.url),
      transport: coalescingTransport(http(primary.url, { retryCount: 0 }), stats),
      cacheTime: 0,
    });
  }

  it("shares identical concurrent reads while pending, keyed by every parameter", async () => {
    primary.mode = { kind: "delay", ms: 100 };
    const stats = { requests: 0, shared: 0 };
    const client = coalescedClient(stats);
    // A restored anvil holds state only for blocks mined since the restore.
    await devnet.testClient.mine({ blocks: 2 });
    const block = await client.getBlockNumber();
    primary.calls.length = 0;
    const address = devnet.manifest.accounts[1]!.address;
    const results = await Promise.all([
      client.getBalance({ address, blockNumber: block }),
      client.getBalance({ address, blockNumber: block }),
      client.getBalance({ address, blockNumber: block - 1n }),
      client.getBalance({ address, blockNumber: block }),
    ]);
    expect(results[0]).toBe(results[1]);
    expect(primary.calls.filter((m) => m === "eth_getBalance")).toHaveLength(2);
    expect(stats.shared).toBe(2);
  });

  it("keeps nothing after a request settles", async () => {
    const stats = { requests: 0, shared: 0 };
    const client = coalescedClient(stats);
    const address = devnet.manifest.accounts[1]!.address;
    await client.getBalance({ address });
    await client.getBalance({ address });
    expect(primary.calls.filter((m) => m === "eth_getBalance")).toHaveLength(2);
    expect(stats.shared).toBe(0);
  });

  it("never shares reads that differ only in state overrides", async () => {
    primary.mode = { kind: "delay", ms: 100 };
    const client = coalescedClient({ requests: 0, shared: 0 });
    const token = devnet.manifest.tokens.find((t) => t.symbol === "DAI")!.address;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" });
    await Promise.all([
      client.call({ to: token, data }),
      client.call({ to: token, data, stateOverride: [{ address: token, balance: 1n }] }),
    ]);
    expect(primary.calls.filter((m) => m === "eth_call")).toHaveLength(2);
  });
});
