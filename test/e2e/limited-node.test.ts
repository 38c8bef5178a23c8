import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type RpcProxy, startRpcProxy } from "../rpc-proxy.ts";
import { builderSwapOnDevnet } from "./builder-swap-flow.ts";
import { startDevnetProcess } from "./devnet-process.ts";
import { freePort, type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * `junction start` against a node with a hosted provider's limits all at once (docs/operating.md, "Choosing
 * a node"): JSON-RPC batches refused (HTTP 400 `-32600` to any array), request bodies capped, and
 * `eth_getLogs` refused past 100 blocks or 1,000 results, and no `eth_simulateV1`. It starts, says once that it sends single calls, indexes, follows,
 * quotes, and settles a builder swap to finality, with no batch ever sent again after the first refusal.
 */
const LOG_RANGE_CAP = 100;

let devnet: Awaited<ReturnType<typeof startDevnetProcess>>;
let proxy: RpcProxy;
let service: SpawnedService | undefined;
let manifest: Manifest;

beforeAll(async () => {
  devnet = await startDevnetProcess();
  manifest = JSON.parse(readFileSync(devnet.manifestPath, "utf8")) as Manifest;
  proxy = await startRpcProxy(devnet.rpcUrl);
  proxy.limits = {
    batches: "refused",
    bodyBytes: 1_500_000,
    logs: { blocks: LOG_RANGE_CAP, results: 1_000 },
    missing: ["eth_simulateV1"],
  };
  service = await spawnService({ JUNCTION_RPC_URL: proxy.url, JUNCTION_DEPLOYMENT: devnet.manifestPath });
}, 240_000);
afterAll(async () => {
  service?.kill();
  await proxy?.close();
  devnet?.child.kill("SIGKILL");
  if (devnet) rmSync(devnet.dataDir, { recursive: true, force: true });
});

describe("a node that refuses batches, caps bodies and caps log ranges", () => {
  it("starts, says once what it learned, quotes and settles a builder swap to finality", async () => {
    const output = service!.output();
    expect(output).toMatch(/junction ready/);
    expect(output).not.toMatch(/unexpected error/);
    expect(output.match(/rpc: batches refused, sending single calls/g) ?? []).toHaveLength(1);
    expect(output.match(/rpc: the node refused eth_getLogs over \d+ blocks/g) ?? []).toHaveLength(1);
    expect(output).toMatch(/node: lacks eth_simulateV1 \(.*\); websocket \(/);

    const refusedAtStart = proxy.refused;
    const token = (symbol: string) => manifest.tokens.find((t) => t.symbol === symbol)!.address as Address;
    const quote = await fetch(
      `${service!.baseUrl}/api/v2/quote?chainId=4663&tokenIn=${manifest.contracts.weth9}&tokenOut=${token("USDC")}&amountIn=${parseEther("1")}`,
    );
    expect(quote.status, await quote.clone().text()).toBe(200);

    await builderSwapOnDevnet(service!, manifest, devnet.rpcUrl, "limited-node");
    // Learned once: no batch was sent after the first refusal.
    expect(proxy.refused).toBe(refusedAtStart);
  }, 240_000);
});

describe("a node that is not there", () => {
  it("stops the start after retrying, naming the node's answer and the setting, not an unexpected error", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "junction-no-node-"));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env))
      if (name.startsWith("JUNCTION_") || name === "DATABASE_URL") delete env[name];
    Object.assign(env, {
      JUNCTION_DATA_DIR: dataDir,
      JUNCTION_PORT: String(await freePort()),
      JUNCTION_PARTNER_PORT: String(await freePort()),
      JUNCTION_RPC_URL: `http://127.0.0.1:${await freePort()}/v2/provider-key`,
      JUNCTION_DEPLOYMENT: devnet.manifestPath,
    });
    try {
      const failed = await promisify(execFile)(process.execPath, ["bin/junction.js", "start"], { env }).then(
        () => ({ code: 0, stdout: "", stderr: "" }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /^junction: the node at http:\/\/127\.0\.0\.1:\d+ \(JUNCTION_RPC_URL\) did not answer in \d+ s \(6 attempts\): .*ECONNREFUSED.*Check that JUNCTION_RPC_URL points at a running node/m,
      );
      expect(`${failed.stdout}${failed.stderr}`).toMatch(/trying again in 8 s \(attempt 6 of 6\)/);
      expect(`${failed.stdout}${failed.stderr}`).not.toMatch(/unexpected error|provider-key/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
