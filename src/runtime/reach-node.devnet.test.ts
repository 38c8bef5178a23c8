import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { createChainClient } from "../chain/create-chain-client.ts";
import { NodeStartError, reachNode } from "./reach-node.ts";

/**
 * Start's first contact with the node, through a proxy that misbehaves as nodes do at start: a node still
 * booting is waited for, and a node that cannot serve stops the start with a message naming its answer and
 * the setting, never an unexpected error.
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
  proxy.mode = { kind: "pass" };
});

const node = () => ({ url: `${proxy.url}/v2/secret-key`, setting: "JUNCTION_RPC_URL" });
const reach = (work: () => Promise<unknown> = async () => "started") => {
  const lines: string[] = [];
  const client = createChainClient({ url: node().url, kind: "private" });
  const done = reachNode(client, node(), work, {
    progress: (line) => lines.push(line),
    backoffMs: [50, 100, 200],
  });
  return { done, lines };
};

describe("reaching the node at start", () => {
  it("waits for a node that fails for a while, saying so on progress lines", async () => {
    proxy.mode = { kind: "http-error", status: 502 };
    setTimeout(() => {
      proxy.mode = { kind: "pass" };
    }, 120);
    const { done, lines } = reach();
    expect(await done).toBe("started");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(
      /^node: http:\/\/127\.0\.0\.1:\d+ did not answer \(.*502.*\); trying again in 0\.05 s/,
    );
  });

  it("stops after the last attempt with the node's answer and the setting, never the URL's path", async () => {
    proxy.mode = { kind: "http-error", status: 503 };
    const { done, lines } = reach();
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeStartError);
    expect((error as Error).message).toMatch(
      /^the node at http:\/\/127\.0\.0\.1:\d+ \(JUNCTION_RPC_URL\) did not answer in \d+ s \(4 attempts\): .*503.*Check that JUNCTION_RPC_URL points at a running node/,
    );
    expect(lines).toHaveLength(3);
    expect([(error as Error).message, ...lines].join("\n")).not.toContain("secret-key");
  });

  it("stops at once on a deterministic refusal, and on a node of another chain", async () => {
    proxy.mode = { kind: "rpc-error", code: -32601 };
    const refused = reach();
    const error = await refused.done.catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/refused a start-up read: .*JSON-RPC endpoint of chain 4663/);
    expect(refused.lines).toEqual([]);

    proxy.mode = {
      kind: "rewrite",
      rewrite: (method, _, result) => (method === "eth_chainId" ? "0x1" : result),
    };
    const other = await reach().done.catch((e: unknown) => e);
    expect((other as Error).message).toMatch(/serves chain 1, not 4663/);
  });

  it("lets errors of its own work (a deployment that does not match) through unchanged", async () => {
    const mine = new Error("deployment file: no contract code");
    await expect(reach(() => Promise.reject(mine)).done).rejects.toBe(mine);
  });
});
