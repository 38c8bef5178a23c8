import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuilderKey, createWorkspace } from "../../src/auth/keys.ts";
import { SERVICE_NODE_FLAGS } from "../../src/cli/node-flags.ts";
import { createThrowawayStore } from "../../src/store/throwaway-store.ts";
import { startTestDevnet, type TestDevnet } from "../devnet.ts";
import { freePort } from "./spawn-service.ts";

/**
 * `junction start --workers 2` as an operator runs it in production: a real RPC (a devnet standing in for
 * the chain's node), a deployment file and a Postgres server; two service processes sharing both ports.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("junction start --workers", () => {
  let devnet: TestDevnet;
  let database: Awaited<ReturnType<typeof createThrowawayStore>>;
  let primary: ChildProcess;
  let output = "";
  let baseUrl: string;
  const dir = mkdtempSync(join(tmpdir(), "junction-workers-"));

  beforeAll(async () => {
    devnet = await startTestDevnet();
    database = await createThrowawayStore(databaseUrl!, "junction_test");
    const deployment = join(dir, "deployment.json");
    const { chainId, deploymentBlock, contracts, tokens } = devnet.manifest;
    writeFileSync(deployment, JSON.stringify({ chainId, deploymentBlock, contracts, tokens }));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, JUNCTION_LOG_LEVEL: "warn" };
    for (const name of Object.keys(env)) if (name.startsWith("JUNCTION_")) delete env[name];
    Object.assign(env, {
      JUNCTION_RPC_URL: devnet.rpcUrl,
      JUNCTION_DEPLOYMENT: deployment,
      JUNCTION_DATA_DIR: dir,
      JUNCTION_PORT: String(port),
      JUNCTION_PARTNER_PORT: String(await freePort()),
      DATABASE_URL: database.url,
      // A short drain period keeps the SIGTERM test short (start.test.ts observes the drain itself).
      JUNCTION_DRAIN_MS: "1000",
    });
    primary = spawn(process.execPath, ["bin/junction.js", "start", "--workers", "2"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [primary.stdout!, primary.stderr!]) stream.on("data", (chunk) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`workers did not start:\n${output}`)), 120_000);
      const check = setInterval(() => {
        if ((output.match(/junction ready/g) ?? []).length >= 2) {
          clearInterval(check);
          clearTimeout(timer);
          resolve();
        }
      }, 100);
    });
  });
  afterAll(async () => {
    primary?.kill("SIGKILL");
    await database?.close();
    await devnet?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  // Each request on a connection of its own, so the cluster spreads them over both workers.
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(`${baseUrl}${path}`, { agent: false }, (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body }));
        })
        .on("error", reject);
    });
  /** The whole service's count of answered `/healthz` requests, from `/metrics`. */
  const healthz = async () => {
    const { body } = await get("/metrics");
    const line = body
      .split("\n")
      .find((l) => l.startsWith("junction_http_requests_total{") && l.includes('route="/healthz"'));
    return line ? Number(line.split(" ").at(-1)) : 0;
  };
  /** The primary's node children: its workers (tsx also runs an esbuild service beside them). */
  const workerPids = () =>
    execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(primary.pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([, command]) => command === "node")
      .map(([pid]) => Number(pid));

  it("serves the whole service's metrics from any worker: the primary sums every worker's", async () => {
    const before = await healthz();
    for (let i = 0; i < 20; i++) expect((await get("/healthz")).status).toBe(200);
    // Whichever worker answers the scrape, it counts all 20, whichever workers served them.
    expect(await healthz()).toBe(before + 20);
    expect(await healthz()).toBe(before + 20);
  });

  it("has exactly one indexer: the other worker reads its saved index and follows the chain through it", async () => {
    const metric = async (name: string) => {
      const body = await (await fetch(`${baseUrl}/metrics`)).text();
      const line = body.split("\n").find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(" ").at(-1)) : undefined;
    };
    // Summed over both workers: one holds the lease.
    expect(await metric("junction_indexer")).toBe(1);
    // The worker that did not win the lease waited for the first save and started on it.
    expect(output).toMatch(
      /pool index read from the database at block \d+ \(\d+ pools; another process is the indexer\)/,
    );
    // The lowest block over both workers reaches the new tip: the reader follows through the database.
    await devnet.testClient.mine({ blocks: 5 });
    const tip = Number(await devnet.publicClient.getBlockNumber());
    const deadline = Date.now() + 30_000;
    let lowest = await metric("junction_pool_index_block");
    while ((lowest ?? 0) < tip && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      lowest = await metric("junction_pool_index_block");
    }
    expect(lowest).toBeGreaterThanOrEqual(tip);
    expect(await metric("junction_indexer")).toBe(1);
  });

  it("keeps a workspace's quota exact across workers: 60 token reads a minute on the free plan, not 60 each", async () => {
    const workspace = await createWorkspace(database.db, { name: "two-workers" });
    const { secret } = await createBuilderKey(database.db, {
      workspaceId: workspace.id,
      name: "t",
      scopes: ["tokens"],
    });
    // Quotas count per minute window on the database clock (this machine's): start well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 61_000 - intoMinute));
    const statuses: number[] = [];
    // Sequential, each on a connection of its own: the cluster spreads them over both workers.
    for (let i = 0; i < 64; i++) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          http
            .get(
              `${baseUrl}/api/v2/builders/tokens`,
              { agent: false, headers: { "x-api-key": secret } },
              (r) => {
                r.resume();
                r.on("end", () => resolve(r.statusCode!));
              },
            )
            .on("error", reject);
        }),
      );
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429, 429, 429]);
  }, 120_000);

  it("keeps the totals' counters from dropping when a worker is killed and replaced", async () => {
    const [victim] = workerPids();
    // Spread over both workers, so the one killed has counted some of them.
    for (let i = 0; i < 20; i++) expect((await get("/healthz")).status).toBe(200);
    // This scrape is the last the primary hears from the victim.
    const before = await healthz();
    const readyBefore = (output.match(/junction ready/g) ?? []).length;
    process.kill(victim!, "SIGKILL");
    // Once the primary has seen it exit, it hands no more connections to it.
    const exited = `worker ${victim} exited (SIGKILL); starting another`;
    const deadline = Date.now() + 90_000;
    while (!output.includes(exited) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = [before];
    while ((output.match(/junction ready/g) ?? []).length <= readyBefore && Date.now() < deadline) {
      seen.push(await healthz());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(output).toContain(exited);
    expect((output.match(/junction ready/g) ?? []).length).toBe(readyBefore + 1);
    // Never lower than before, whichever workers answered: the dead worker's count stays in the total.
    for (const [i, count] of seen.entries()) expect(count, `scrape ${i}`).toBe(before);
    for (let i = 0; i < 10; i++) expect((await get("/healthz")).status).toBe(200);
    expect(await healthz()).toBe(before + 10);
    expect(workerPids()).toHaveLength(2);
  });

  it("runs two service processes behind one port, and stops them all on SIGTERM", async () => {
    const workers = workerPids();
    expect(workers).toHaveLength(2);
    expect(output).toMatch(/starting 2 workers/);
    // Each runs with the service's V8 flags, though the primary was started without them.
    for (const pid of workers)
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(
        expect.arrayContaining([...SERVICE_NODE_FLAGS]),
      );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${baseUrl}/api/v2/config`).then((r) => r.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);

    const exited = new Promise<number | null>((resolve) => primary.once("exit", resolve));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });

  it("refuses --workers without a Postgres server and a real RPC", () => {
    let failed: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, ["bin/junction.js", "start", "--workers", "2"], {
        env: { ...process.env, JUNCTION_DATA_DIR: dir, DATABASE_URL: "" },
        stdio: "pipe",
      });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      failed = { status: e.status, stderr: e.stderr.toString() };
    }
    expect(failed?.status).toBe(1);
    expect(failed?.stderr).toMatch(/--workers.*needs DATABASE_URL and JUNCTION_RPC_URL/);
  });
});
