import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAVE_INTERVAL_MS } from "../../src/devnet/chain-saver.ts";
import { createThrowawayStore } from "../../src/store/throwaway-store.ts";
import { freePort, type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * The data dir as a crash or a careless second start leaves it: refused before anything is touched, a
 * kill -9 restart that reports what the chain lost and keeps what the database has, and a damaged state
 * file that costs a cold boot, not a failure.
 */
let service: SpawnedService;
let spawnedAt: number;
beforeAll(async () => {
  spawnedAt = Date.now();
  service = await spawnService();
});
afterAll(() => service?.kill());

const files = () => {
  const dir = join(service.dataDir, "devnet");
  return { manifest: readFileSync(join(dir, "manifest.json")), state: readFileSync(join(dir, "state.json")) };
};

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("timed out waiting for the devnet's periodic save");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `junction <command>` to its exit (it is expected to refuse); returns its code and what it printed. */
async function refused(
  command: "start" | "devnet",
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const child: ChildProcess = spawn(process.execPath, ["bin/junction.js", command], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

const quote = (base: string) =>
  fetch(
    `${base}/api/v2/builders/quote?${new URLSearchParams({
      tokenIn: service.manifest().contracts.weth9,
      tokenOut: service.manifest().tokens.find((t) => t.symbol === "USDC")!.address,
      amountIn: "1000000000000000000",
      payer: service.manifest().accounts[2]!.address,
    })}`,
    { headers: { "x-api-key": service.manifest().demoWorkspace!.keys.quote } },
  );

describe("crash and second-start safety", () => {
  it("refuses a second start on a data dir in use, on other ports or the same, touching nothing", async () => {
    // The running service saves an idle chain every SAVE_INTERVAL_MS (30 s; sooner after blocks carrying
    // transactions, as its start-up sends): start right after a periodic save, so the comparison below sees
    // only what the refused commands did (they take seconds, not 30).
    const statePath = join(service.dataDir, "devnet", "state.json");
    const firstPeriodic = spawnedAt + SAVE_INTERVAL_MS;
    await waitFor(() => statSync(statePath).mtimeMs >= firstPeriodic, 2 * SAVE_INTERVAL_MS + 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the save's write completes
    const before = files();
    const otherPorts = {
      ...service.env,
      JUNCTION_PORT: String(await freePort()),
      JUNCTION_PARTNER_PORT: String(await freePort()),
    };
    for (const env of [otherPorts, service.env]) {
      const second = await refused("start", env);
      expect(second.code).toBe(1);
      expect(second.output).toMatch(
        new RegExp(`in use by a running junction service \\(pid ${service.process.pid}, since `),
      );
      expect(second.output).not.toMatch(/seeding|anvil/);
    }
    const after = files();
    expect(after.manifest.equals(before.manifest)).toBe(true);
    expect(after.state.equals(before.state)).toBe(true);
    expect((await quote(service.baseUrl)).status).toBe(200);
  });

  it("refuses `junction devnet` on a data dir in use, leaving the manifest's rpcUrl on the running node", async () => {
    const before = files().manifest;
    const devnet = await refused("devnet", {
      ...service.env,
      JUNCTION_DEVNET_PORT: String(await freePort()),
    });
    expect(devnet.code).toBe(1);
    expect(devnet.output).toMatch(
      new RegExp(`in use by a running junction service \\(pid ${service.process.pid}, since `),
    );
    // Refused before anvil starts, so the state file is not touched either (only the service writes it).
    expect(devnet.output).not.toMatch(/seeding|anvil/);
    expect(files().manifest.equals(before)).toBe(true);
    expect(service.manifest().rpcUrl).toBe(service.rpcUrl);
  });

  it("restarts after kill -9: takes the lock over, keeps the database, says what the chain lost", async () => {
    const keys = service.manifest().demoWorkspace!.keys;
    // A quote recorded at the tip; then the process dies before the devnet's next periodic save.
    const health = (await (await fetch(`${service.baseUrl}/healthz`)).json()) as { block: string };
    const head = BigInt(health.block);
    const recorded = await quote(service.baseUrl);
    expect(recorded.status).toBe(200);
    const exited = new Promise((resolve) => service.process.once("exit", resolve));
    service.process.kill("SIGKILL");
    await exited;

    service = await spawnService({}, { dataDir: service.dataDir });
    const output = service.output();
    const chainHead = /the chain \(block (\d+)\) is behind the database \(block (\d+)\)/.exec(output);
    // The saved chain is older than the quote's block: the start says so (it may also have saved in time).
    console.info(
      `[crash] after kill -9: ${chainHead ? chainHead[0] : "the chain kept every recorded block"}`,
    );
    if (chainHead) expect(BigInt(chainHead[2]!)).toBeGreaterThanOrEqual(head);
    else expect(output).not.toMatch(/behind the database/);
    // The same demo keys still work, and no second set was created.
    expect(service.manifest().demoWorkspace!.keys).toEqual(keys);
    expect((await quote(service.baseUrl)).status).toBe(200);
  });

  it("boots cold, with a clear message, when the saved chain state is damaged", async () => {
    const stopped = new Promise((resolve) => service.process.once("exit", resolve));
    service.process.kill("SIGTERM");
    await stopped;
    const state = join(service.dataDir, "devnet", "state.json");
    truncateSync(state, Math.floor(readFileSync(state).length / 2));
    service = await spawnService({}, { dataDir: service.dataDir });
    expect(service.output()).toMatch(/could not load the saved chain state; seeding anew/);
    expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
    // A new chain, so new demo keys (the old ones revoked), and they work.
    expect((await quote(service.baseUrl)).status).toBe(200);
    const listing = await service.cli([
      "key",
      "list",
      "--workspace",
      service.manifest().demoWorkspace!.builderCode,
      "--json",
    ]);
    const statuses = (JSON.parse(listing.stdout).keys as { name: string; status: string }[]).filter((k) =>
      k.name.startsWith("demo-"),
    );
    expect(statuses.filter((k) => k.status === "active")).toHaveLength(5);
  }, 300_000);
});

describe.skipIf(!process.env.DATABASE_URL)("kill -9 mid-load on a Postgres server", () => {
  it("keeps every answered quote and serves again after a restart", async () => {
    const database = await createThrowawayStore(process.env.DATABASE_URL!, "junction_test");
    let pg: SpawnedService | undefined;
    try {
      pg = await spawnService({ DATABASE_URL: database.url });
      const manifest = pg.manifest();
      const keys = manifest.demoWorkspace!.keys;
      const ask = (base: string, n: number) =>
        fetch(
          `${base}/api/v2/builders/quote?${new URLSearchParams({
            tokenIn: manifest.contracts.weth9,
            tokenOut: manifest.tokens.find((t) => t.symbol === "DAI")!.address,
            amountIn: `${n}000000000000000`,
            payer: manifest.accounts[2]!.address,
          })}`,
          { headers: { "x-api-key": keys.all } },
        ).then(
          (response) => response.status,
          () => "cut" as const,
        );
      // Load in flight when the process dies.
      const answered = await Promise.all([1, 2, 3].map((n) => ask(pg!.baseUrl, n)));
      const inFlight = Promise.all([4, 5, 6, 7, 8, 9].map((n) => ask(pg!.baseUrl, n)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const exited = new Promise((resolve) => pg!.process.once("exit", resolve));
      pg.process.kill("SIGKILL");
      const during = await inFlight;
      await exited;
      const served = [...answered, ...during].filter((status) => status === 200).length;

      pg = await spawnService({ DATABASE_URL: database.url }, { dataDir: pg.dataDir });
      const { rows } = await sql<{ n: string }>`select count(*) as n from builder_quotes`.execute(
        database.db,
      );
      // Every quote a client received was saved before it was answered; none was lost with the process.
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(served);
      expect(pg.manifest().demoWorkspace!.keys).toEqual(keys);
      expect(await ask(pg.baseUrl, 10)).toBe(200);
    } finally {
      pg?.kill();
      await database.close();
    }
  }, 300_000);
});
