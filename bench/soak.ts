import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SERVICE_NODE_FLAGS } from "../src/cli/node-flags.ts";
import type { Manifest } from "../src/devnet/manifest.ts";
import { machineLine, table } from "./machine.ts";
import { median, percentile } from "./measure.ts";

/**
 * `npm run soak [-- --minutes 30 --concurrency 4 --data-dir <dir>]`: the memory and storage story of a
 * running service, as an operator would watch it. Starts the real `junction start` on a fresh data dir
 * (cold), restarts it on the same dir (warm), then drives a mixed load (public quotes, builder quotes,
 * tokens, usage, history, partner quotes with and without a transaction) for the given minutes, sampling
 * every minute the resident memory of the service process and of its anvil, the data dir's size and the
 * requests answered. The client is well behaved: after a 429 it leaves that kind of request alone for the
 * Retry-After seconds, so the load is what the documented limits admit. Prints markdown tables. Not a test: nothing here asserts. Linux only (reads /proc).
 */
const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    concurrency: { type: "string", default: "4" },
    "sample-seconds": { type: "string", default: "60" },
    "data-dir": { type: "string" },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const sampleMs = Number(values["sample-seconds"]) * 1000;
const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);

const dataDir = values["data-dir"] ?? mkdtempSync(join(tmpdir(), "junction-soak-"));
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
const [port, partnerPort] = [await freePort(), await freePort()];
const baseUrl = `http://127.0.0.1:${port}`;
const partnerUrl = `http://127.0.0.1:${partnerPort}`;

type Running = { child: ChildProcess; readyMs: number };

async function start(): Promise<Running> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JUNCTION_DATA_DIR: dataDir,
    JUNCTION_PORT: String(port),
    JUNCTION_PARTNER_PORT: String(partnerPort),
    JUNCTION_DEVNET_PORT: "0",
    JUNCTION_LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  // Started as `npm start` starts it, with the service's V8 flags.
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, "bin/junction.js", "start"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("junction ready")) resolve();
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) => reject(new Error(`junction start exited with ${code}:\n${output}`)));
  });
  return { child, readyMs: performance.now() - started };
}

async function stop({ child }: Running): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
}

/** Resident set size in MiB of a process (or its peak so far, `VmHWM`), from /proc. */
function rssMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The service's anvil: a descendant (the service runs it under a small guard process). */
function anvilPid(service: number): number | undefined {
  const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" });
  const processes = out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm }));
  const descendants = new Set([service]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes)
      if (descendants.has(p.ppid) && !descendants.has(p.pid)) grew = descendants.add(p.pid) !== undefined;
  }
  return processes.find((p) => descendants.has(p.pid) && p.comm === "anvil")?.pid;
}

function dirMiB(dir: string): number {
  return Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split(/\s+/)[0]) / 1024;
}

type Sample = {
  label: string;
  service: number;
  /** The service's peak resident memory since it started. */
  peak: number;
  anvil: number;
  dataDir: number;
  served: number;
  p50: number;
  p90: number;
};
const samples: Sample[] = [];
const latencies: number[] = [];
const statuses = new Map<string, number>();
let served = 0;

function sample(running: Running, label: string) {
  const pid = running.child.pid!;
  const anvil = anvilPid(pid);
  samples.push({
    label,
    service: rssMiB(pid),
    peak: rssMiB(pid, "VmHWM"),
    anvil: anvil ? rssMiB(anvil) : 0,
    dataDir: dirMiB(dataDir),
    served,
    p50: latencies.length ? median(latencies) : 0,
    p90: latencies.length ? percentile(latencies, 90) : 0,
  });
  latencies.length = 0;
  log(
    `${label}: service ${samples.at(-1)!.service.toFixed(0)} MiB (peak ${samples.at(-1)!.peak.toFixed(0)}), anvil ${samples.at(-1)!.anvil.toFixed(0)} MiB`,
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

log(`cold start in ${dataDir}`);
let running = await start();
const coldMs = running.readyMs;
await settle();
sample(running, "after cold start");
await stop(running);
running = await start();
const warmMs = running.readyMs;
await settle();
sample(running, "after warm start");

const manifest = JSON.parse(readFileSync(join(dataDir, "devnet", "manifest.json"), "utf8")) as Manifest;
const builderKey = manifest.demoWorkspace!.keys.all;
const partner = manifest.demoPartner!.keys;
const tokens = manifest.tokens.map((t) => t.address.toLowerCase());
const recipient = manifest.accounts[1]!.address;
// The demo workspace may spend what a soak asks of it.
execFileSync(
  process.execPath,
  ["bin/junction.js", "workspace", "plan", "--code", manifest.demoWorkspace!.builderCode, "--plan", "growth"],
  {
    env: { ...process.env, JUNCTION_DATA_DIR: dataDir },
    stdio: "ignore",
  },
);

let seed = 4663;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const amount = () => String(10n ** BigInt(14 + Math.floor(random() * 8)));

/** One request of the mix: what kind, and its URL and headers. */
function nextRequest(): { kind: string; url: string; headers: Record<string, string> } {
  const tokenIn = pick(tokens);
  const tokenOut = pick(tokens.filter((token) => token !== tokenIn));
  const roll = random();
  if (roll < 0.4) {
    const query = new URLSearchParams({ chainId: "4663", tokenIn, tokenOut, amountIn: amount() });
    return { kind: "public quote", url: `${baseUrl}/api/v2/quote?${query}`, headers: {} };
  }
  const builder = { "x-api-key": builderKey };
  if (roll < 0.55) {
    const query = new URLSearchParams({
      tokenIn,
      tokenOut,
      amountIn: amount(),
      payer: recipient,
      slippageBps: "50",
    });
    return { kind: "builder quote", url: `${baseUrl}/api/v2/builders/quote?${query}`, headers: builder };
  }
  if (roll < 0.6) return { kind: "tokens", url: `${baseUrl}/api/v2/builders/tokens`, headers: builder };
  if (roll < 0.65) return { kind: "usage", url: `${baseUrl}/api/v2/builders/usage`, headers: builder };
  if (roll < 0.7) return { kind: "history", url: `${baseUrl}/api/v2/builders/history`, headers: builder };
  const withTx = roll < 0.85;
  const query = new URLSearchParams({
    in: tokenIn,
    out: tokenOut,
    amount: amount(),
    ...(withTx ? { recipient } : {}),
  });
  return {
    kind: withTx ? "partner quote + tx" : "partner quote",
    url: `${partnerUrl}/quote?${query}`,
    headers: { authorization: `Bearer ${withTx ? partner.swap : partner.quote}` },
  };
}

const deadline = Date.now() + minutes * 60_000;
/** A well-behaved client: after a 429 it leaves that kind of request alone for the Retry-After seconds. */
const backoffUntil = new Map<string, number>();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function worker() {
  while (Date.now() < deadline) {
    const request = nextRequest();
    if ((backoffUntil.get(request.kind) ?? 0) > Date.now()) {
      await pause(20);
      continue;
    }
    const started = performance.now();
    const response = await fetch(request.url, { headers: request.headers }).catch(() => undefined);
    await response?.arrayBuffer();
    latencies.push(performance.now() - started);
    served++;
    const key = `${request.kind} ${response?.status ?? "network error"}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    if (response?.status === 429) {
      const seconds = Math.min(60, Number(response.headers.get("retry-after") ?? 1));
      backoffUntil.set(request.kind, Date.now() + seconds * 1000);
    }
  }
}
log(`mixed load for ${minutes} min at concurrency ${concurrency}`);
const load = Promise.all(Array.from({ length: concurrency }, worker));
const timer = setInterval(
  () => sample(running, `load, minute ${Math.round((Date.now() - deadline) / 60_000 + minutes)}`),
  sampleMs,
);
await load;
clearInterval(timer);
sample(running, "after load");
await stop(running);
if (!values["data-dir"]) rmSync(dataDir, { recursive: true, force: true });

const rows = [
  machineLine(
    `service started with ${SERVICE_NODE_FLAGS.join(" ")}; ${minutes} min of mixed load at concurrency ${concurrency}`,
  ),
  "",
  `Start-up: cold ${(coldMs / 1000).toFixed(1)} s, warm ${(warmMs / 1000).toFixed(1)} s (spawn to "junction ready").`,
  "",
  ...table(
    [
      "When",
      "Service RSS (MiB)",
      "Service peak RSS (MiB)",
      "anvil RSS (MiB)",
      "Data dir (MiB)",
      "Requests so far",
      "p50 (ms)",
      "p90 (ms)",
    ],
    samples.map((s) => [
      s.label,
      s.service.toFixed(0),
      s.peak.toFixed(0),
      s.anvil.toFixed(0),
      s.dataDir.toFixed(1),
      String(s.served),
      s.p50.toFixed(0),
      s.p90.toFixed(0),
    ]),
  ),
  "",
  ...table(
    ["Request", "Status", "Count"],
    [...statuses.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => {
        const cut = key.lastIndexOf(" ");
        return [key.slice(0, cut), key.slice(cut + 1), String(count)];
      }),
  ),
];
process.stdout.write(`${rows.join("\n")}\n`);
