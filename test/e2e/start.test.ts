import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_ID } from "../../src/chain/chain.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

let spawned: SpawnedService;
let service: ChildProcess;
let dataDir: string;
let baseUrl: string;
let partnerUrl: string;
const output = () => spawned.output();

beforeAll(async () => {
  // A loaded CI machine makes the aggregator stand-ins slow to answer: a generous provider deadline.
  // A short drain period: SIGTERM is observed turning the service not ready while it still serves.
  // The default log level, as an operator runs it: its progress lines are checked here.
  spawned = await spawnService({
    JUNCTION_PROVIDER_DEADLINE_MS: "8000",
    JUNCTION_DRAIN_MS: "2000",
    JUNCTION_LOG_LEVEL: "info",
  });
  ({ dataDir, baseUrl, partnerUrl } = spawned);
  service = spawned.process;
});

afterAll(() => spawned?.kill());

describe("junction start", () => {
  it("prints progress and both URLs", () => {
    expect(output()).toMatch(/devnet: starting anvil/);
    expect(output()).toContain(baseUrl);
    expect(output()).toContain(partnerUrl);
    // The devnet's demo workspace key, ready to use (devnet only).
    expect(output()).toMatch(/demo builder\s+junction-demo[\s\S]*jct_[0-9A-Za-z]{12}_/);
    // Beside it, the demo partner keys, the same the manifest lists.
    const { swap, quote } = spawned.manifest().demoPartner!.keys;
    expect(swap).toMatch(/^jpk_[0-9A-Za-z]{12}_/);
    expect(output()).toMatch(new RegExp(`demo partner[\\s\\S]*swap\\s+${swap}\\s+quote\\s+${quote}`));
  });

  it("serves GET /api/v2/config for chain 4663 with the devnet's contracts", async () => {
    const response = await fetch(`${baseUrl}/api/v2/config`);
    expect(response.status).toBe(200);
    const config = (await response.json()) as { chainId: number; contracts: unknown };
    expect(config.chainId).toBe(CHAIN_ID);
    const manifest = (await import(join(dataDir, "devnet", "manifest.json"), { with: { type: "json" } }))
      .default;
    expect(config.contracts).toEqual(manifest.contracts);
  });

  it("answers health on both listeners from the live node", async () => {
    for (const url of [baseUrl, partnerUrl]) {
      const response = await fetch(`${url}/healthz`);
      expect(response.status).toBe(200);
      const health = (await response.json()) as { block: string };
      expect(Number(health.block)).toBeGreaterThan(0);
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      // The embedded devnet's anvil has every feature Junction uses, WebSocket included.
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: "ready", nodeLacks: [] });
    }
    // Both listeners count into the one registry served on {base_url}.
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    for (const host of ["base", "partner"])
      expect(metrics).toMatch(
        new RegExp(
          `junction_http_requests_total\\{host="${host}",method="GET",route="/healthz",status="200",code=""\\} [1-9]`,
        ),
      );
    expect(metrics).toMatch(/\njunction_pool_index_block [1-9]/);
    expect(metrics).toMatch(/\njunction_rpc_requests_total\{method="eth_getLogs",outcome="ok"\} [1-9]/);
    // On the devnet, pool state follows anvil's newHeads subscription (WebSocket on its RPC port).
    expect(metrics).toMatch(/\njunction_followed_state_subscribed 1\n/);
    expect(output()).not.toMatch(/newHeads subscription (unavailable|lost)/);
  });

  it("warms the search up once every pool is followed, so the first quotes find it compiled", async () => {
    await expect
      .poll(output, { timeout: 60_000, interval: 250 })
      .toMatch(/quotes: search warmed up over [1-9]\d* trades/);
  });

  it("quotes WETH to USDC with a simulated, display-only comparison and no calldata", async () => {
    const manifest = (await import(join(dataDir, "devnet", "manifest.json"), { with: { type: "json" } }))
      .default as {
      contracts: { weth9: string };
      tokens: { symbol: string; address: string }[];
    };
    const usdc = manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const params = new URLSearchParams({
      chainId: String(CHAIN_ID),
      tokenIn: manifest.contracts.weth9,
      tokenOut: usdc,
      amountIn: (25n * 10n ** 18n).toString(),
    });
    const response = await fetch(`${baseUrl}/api/v2/quote?${params}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const quote = JSON.parse(text) as {
      amountOut: string;
      execution: { status: string; amountOut: string; gasPrice: string };
      comparison: { selected: boolean }[];
    };
    expect(quote.execution.status).toBe("simulated");
    expect(quote.execution.amountOut).toBe(quote.amountOut);
    expect(BigInt(quote.execution.gasPrice)).toBeGreaterThan(0n);
    expect(quote.comparison.filter((c) => c.selected)).toHaveLength(1);
    // Addresses and pool ids only: nothing longer than a 32-byte hash, so no calldata.
    expect(text).not.toMatch(/0x[0-9a-fA-F]{65,}/);

    const unknown = await fetch(
      `${baseUrl}/api/v2/quote?${new URLSearchParams({ ...Object.fromEntries(params), tokenOut: `0x${"42".repeat(20)}` })}`,
    );
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("UNKNOWN_TOKEN");
  });

  it("compares the devnet's aggregator stand-ins beside its own routes, and narrows to one on request", async () => {
    const manifest = JSON.parse(readFileSync(join(dataDir, "devnet", "manifest.json"), "utf8")) as {
      contracts: { weth9: string };
      tokens: { symbol: string; address: string }[];
      aggregatorStandIns: Record<string, string>;
    };
    expect(Object.keys(manifest.aggregatorStandIns).sort()).toEqual(["aggregator-a", "aggregator-b"]);
    const config = (await (await fetch(`${baseUrl}/api/v2/config`)).json()) as {
      providers: { id: string; enabled: boolean; standInUrl?: string }[];
    };
    // Every provider enabled, the aggregators served by the stand-ins the manifest lists.
    expect(config.providers.map((p) => [p.id, p.enabled, p.standInUrl])).toEqual([
      ["service", true, undefined],
      ["aggregator-a", true, manifest.aggregatorStandIns["aggregator-a"]],
      ["aggregator-b", true, manifest.aggregatorStandIns["aggregator-b"]],
      ["aggregator-a-direct", true, manifest.aggregatorStandIns["aggregator-a"]],
    ]);
    const link = manifest.tokens.find((t) => t.symbol === "LINK")!.address;
    const params = new URLSearchParams({
      chainId: String(CHAIN_ID),
      tokenIn: manifest.contracts.weth9,
      tokenOut: link,
      amountIn: (10n ** 17n).toString(),
    });
    type Entry = { provider: string; variant: string | null; feeBps: number; execution: { status: string } };
    const all = await fetch(`${baseUrl}/api/v2/quote?${params}`);
    const text = await all.text();
    expect(all.status).toBe(200);
    // Where the time went, per stage.
    const timing = all.headers.get("server-timing") ?? "";
    const stages = timing.split(", ").map((m) => m.split(";")[0]);
    // What the quote asked of the node: calls sent, batched into requests, in at least one round trip.
    const count = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(timing)?.[1]);
    const trips = count("rpc-round-trips");
    expect(stages).toEqual([
      "pin",
      "state",
      "search",
      "providers",
      "simulate",
      "rank",
      "rpc-calls",
      "rpc-requests",
      "rpc-round-trips",
      // A quote of more than one round trip names the call that opened each.
      ...(trips > 1 ? ["rpc-round-trip-openers"] : []),
    ]);
    const openers = /rpc-round-trip-openers;desc="([^"]*)"/.exec(timing)?.[1];
    if (trips > 1) expect(openers?.split(" ")).toHaveLength(trips);
    expect(trips).toBeGreaterThanOrEqual(1);
    expect(count("rpc-calls")).toBeGreaterThanOrEqual(count("rpc-requests"));
    expect(count("rpc-requests")).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/0x[0-9a-fA-F]{65,}/);
    const entries = (JSON.parse(text) as { comparison: Entry[] }).comparison;
    const providers = new Set(entries.map((e) => e.provider));
    expect(providers.has("service") && providers.has("aggregator-b")).toBe(true);
    for (const e of entries) if (e.provider !== "service") expect(e.feeBps).toBe(0);
    const onlyA = (await (await fetch(`${baseUrl}/api/v2/quote?${params}&provider=aggregator-a`)).json()) as {
      provider: string;
      fee: { bps: number };
      comparison: Entry[];
    };
    expect(onlyA.comparison.length).toBeGreaterThan(0);
    expect(onlyA.comparison.every((e) => e.provider.startsWith("aggregator-a") && e.variant !== null)).toBe(
      true,
    );
    expect(onlyA.fee.bps).toBe(0);
    // Each provider's outcome is counted per variant.
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /\njunction_provider_outcomes_total\{provider="aggregator-b",variant="firm",outcome="quoted"\} [1-9]/,
    );
    expect(metrics).toMatch(/\njunction_quote_stage_duration_seconds_count\{stage="simulate"\} [1-9]/);
  });

  it("shuts down cleanly on SIGTERM: not ready first while still serving, then exits 0, stops anvil, saves the chain", async () => {
    const statePath = join(dataDir, "devnet", "state.json");
    const savedBefore = statSync(statePath).mtimeMs;
    // The guard (node) is the service's child and anvil its child; esbuild (tsx's compiler) also runs beside it.
    const children = (pid: number) =>
      execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" })
        .split("\n")
        .map((line) => line.trim().split(/\s+/))
        .filter(([pid]) => Number(pid) > 0)
        .map(([pid, command]) => ({ pid: Number(pid), command: command! }));
    const guard = children(service.pid!).find((child) => child.command === "node");
    const anvil = guard && children(guard.pid).find((child) => child.command === "anvil");
    expect(anvil).toBeDefined();
    const exit = new Promise<number | null>((resolve) => service.once("exit", resolve));
    service.kill("SIGTERM");
    // The drain period: /readyz turns 503 (once the signal is handled) while requests are still served,
    // each answer closing its connection so a keep-alive client reconnects through the balancer.
    let readiness = await fetch(`${baseUrl}/readyz`);
    while (readiness.status === 200) readiness = await fetch(`${baseUrl}/readyz`);
    expect(await readiness.json()).toEqual({ status: "not-ready", reason: "stopping", nodeLacks: [] });
    expect(await (await fetch(`${partnerUrl}/readyz`)).json()).toEqual({
      status: "not-ready",
      reason: "stopping",
      nodeLacks: [],
    });
    const served = await fetch(`${baseUrl}/api/v2/config`);
    expect(served.status).toBe(200);
    expect(served.headers.get("connection")).toBe("close");
    expect(output()).toMatch(/not ready; serving 2000 ms more before closing/);
    expect(await exit).toBe(0);
    for (const pid of [guard!.pid, anvil!.pid]) expect(() => process.kill(pid, 0), `pid ${pid}`).toThrow();
    expect(existsSync(statePath)).toBe(true);
    expect(statSync(statePath).mtimeMs).toBeGreaterThan(savedBefore);
  });
});
