import { readFileSync } from "node:fs";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type RpcProxy, startRpcProxy } from "../rpc-proxy.ts";
import { builderSwapOnDevnet } from "./builder-swap-flow.ts";
import { startDevnetProcess } from "./devnet-process.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * `junction start` against a node with one hosted provider's limit at a time (docs/operating.md, "Choosing
 * a node"), each through the repo's fault proxy on one devnet: it starts, says what it learned, indexes,
 * follows, quotes, and settles a builder swap to `finalized`. The limits all at once: limited-node.test.ts.
 */
type Mode = {
  name: string;
  code: string;
  /** The node's limits from the start. */
  limits: RpcProxy["limits"];
  /** What the start said (each at least once), and what it said exactly once. */
  said: RegExp[];
  once?: RegExp[];
  /** What `/readyz` names the node lacks (no WebSocket endpoint is configured here). */
  lacks: string[];
  /** A rate limit's burst, begun once the service is ready: a quote answers 503 at once, then recovers. */
  burst?: { times: number; retryAfter?: number };
};

const MODES: Mode[] = [
  {
    name: "batches refused",
    code: "no-batches",
    limits: { batches: "refused" },
    said: [],
    once: [/rpc: batches refused, sending single calls/],
    lacks: ["websocket"],
  },
  {
    name: "batches capped at 10 calls",
    code: "capped-batches",
    limits: { batches: 10 },
    said: [/rpc: the node refused a batch of \d+ calls; sending at most \d+ per batch/],
    lacks: ["websocket"],
  },
  {
    name: "eth_getLogs capped at 50 blocks and 40 results",
    code: "capped-logs",
    limits: { logs: { blocks: 50, results: 40 } },
    said: [],
    once: [/rpc: the node refused eth_getLogs over \d+ blocks/],
    lacks: ["websocket"],
  },
  {
    name: "429 bursts with Retry-After",
    code: "throttled-retry",
    limits: {},
    said: [],
    lacks: ["websocket"],
    burst: { times: 3, retryAfter: 2 },
  },
  {
    name: "429 bursts without Retry-After",
    code: "throttled-bare",
    limits: {},
    said: [],
    lacks: ["websocket"],
    burst: { times: 3 },
  },
  {
    name: "no eth_simulateV1, no eth_gasPrice, no WebSocket",
    code: "missing-methods",
    limits: { missing: ["eth_simulateV1", "eth_gasPrice"] },
    said: [],
    once: [
      /node: lacks eth_gasPrice \(.*\); eth_simulateV1 \(.*\); websocket \(/,
      /rpc: the node has no eth_simulateV1/,
      /rpc: the node has no eth_gasPrice/,
    ],
    lacks: ["eth_gasPrice", "eth_simulateV1", "websocket"],
  },
];

let devnet: Awaited<ReturnType<typeof startDevnetProcess>>;
let manifest: Manifest;
beforeAll(async () => {
  devnet = await startDevnetProcess();
  manifest = JSON.parse(readFileSync(devnet.manifestPath, "utf8")) as Manifest;
}, 120_000);
afterAll(() => devnet?.child.kill("SIGKILL"));

describe.each(MODES)("a node with $name", (mode) => {
  let proxy: RpcProxy;
  let service: SpawnedService | undefined;
  beforeAll(async () => {
    proxy = await startRpcProxy(devnet.rpcUrl);
    proxy.limits = structuredClone(mode.limits);
    service = await spawnService({ JUNCTION_RPC_URL: proxy.url, JUNCTION_DEPLOYMENT: devnet.manifestPath });
  }, 240_000);
  afterAll(async () => {
    service?.kill();
    await proxy?.close();
  });

  it("starts saying what it learned, quotes through it, and settles a builder swap to finality", async () => {
    const output = service!.output();
    expect(output).toMatch(/junction ready/);
    expect(output).not.toMatch(/unexpected error/);
    for (const said of mode.said) expect(output).toMatch(said);
    for (const once of mode.once ?? [])
      expect(output.match(new RegExp(once, "g")) ?? [], String(once)).toHaveLength(1);
    const readiness = await fetch(`${service!.baseUrl}/readyz`);
    expect(await readiness.json()).toEqual({ status: "ready", nodeLacks: mode.lacks });

    const token = (symbol: string) => manifest.tokens.find((t) => t.symbol === symbol)!.address as Address;
    const quote = (amount: string) =>
      fetch(
        `${service!.baseUrl}/api/v2/quote?chainId=4663&tokenIn=${manifest.contracts.weth9}&tokenOut=${token("USDC")}&amountIn=${parseEther(amount)}`,
      );
    if (mode.burst) {
      proxy.limits.throttle = { ...mode.burst };
      const limited = await quote("2");
      expect(limited.status).toBe(503);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as { error: unknown }).error).toMatchObject({
        code: "UPSTREAM_UNAVAILABLE",
        reason: "rpc-rate-limited",
      });
      // The backoff ends and the followers catch up: quotes answer again.
      let answer = limited;
      for (let i = 0; i < 60 && answer.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        answer = await quote("2");
      }
      expect(answer.status).toBe(200);
      expect(proxy.limits.throttle.times).toBe(0);
    }
    let quoted = await quote("1");
    // The burst's last 429 may have reached the followers' requests while that quote's went through: its
    // backoff still refuses quotes at once for a few seconds (documented), and then ends for good.
    for (let i = 0; mode.burst && i < 30 && (await rateLimited(quoted)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      quoted = await quote("1");
    }
    expect(quoted.status, await quoted.clone().text()).toBe(200);

    await builderSwapOnDevnet(service!, manifest, devnet.rpcUrl, mode.code);
    // Every limit was met and adapted to, not merely configured.
    if (mode.limits.batches !== undefined) expect(proxy.refused).toBeGreaterThan(0);
    if (mode.limits.logs || mode.limits.missing) expect(proxy.refusedCalls).toBeGreaterThan(0);
  }, 240_000);
});

describe("a node that refuses one block's pool logs", () => {
  it("stops the start after retrying, naming the refusal, the step and the remedy, not an unexpected error", async () => {
    const proxy = await startRpcProxy(devnet.rpcUrl);
    proxy.limits = { logs: { results: 1 } };
    try {
      const failed = await spawnService({
        JUNCTION_RPC_URL: proxy.url,
        JUNCTION_DEPLOYMENT: devnet.manifestPath,
      }).then(
        (service) => {
          service.kill();
          return "started";
        },
        (error: Error) => error.message,
      );
      expect(failed).toMatch(
        /junction: the node at http:\/\/127\.0\.0\.1:\d+ \(JUNCTION_RPC_URL\) kept refusing the pool index's first scan for \d+ s \(6 attempts\): .*query returned more than 1 results.*use a node that answers them/,
      );
      expect(failed).toMatch(/node: http:\/\/127\.0\.0\.1:\d+ refused \(.*\); trying again in 0\.5 s/);
      expect(failed).not.toMatch(/unexpected error/);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

/** Whether a quote was refused for the node's rate limit (503 `rpc-rate-limited`). */
async function rateLimited(response: Response): Promise<boolean> {
  if (response.status !== 503) return false;
  const body = (await response.clone().json()) as { error?: { reason?: string } };
  return body.error?.reason === "rpc-rate-limited";
}
