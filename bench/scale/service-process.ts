import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVICE_NODE_FLAGS } from "../../src/cli/node-flags.ts";
import { JUNCTION_BIN, operatorEnv } from "./operator-env.ts";

/** The service's log line once every indexed pool's state is followed (src/runtime/adoption-progress.ts). */
const FOLLOWED = /followed pool state: \d+ of \d+ pools followed, taken in/;

export type ServiceProcess = {
  /** The node process running `junction start` itself (no wrapper: `bin/junction.js` loads the sources in-process). */
  pid: number;
  baseUrl: string;
  /** From spawn to the `junction ready` line, in ms. */
  readyMs: number;
  /**
   * From spawn to the log line saying every indexed pool's state is followed (it comes after ready: until
   * then quotes read the other pools directly), or undefined before it.
   */
  followedMs: () => number | undefined;
  /** Everything the service printed, JSON log lines (stdout) and progress (stderr); kept after stop. */
  logPath: string;
  stop: () => Promise<void>;
};

/**
 * Starts `junction start` as an operator does on a real chain: its V8 flags (`npm start`'s), an RPC URL, a
 * deployment file, a fresh data dir (the embedded database), free ports, the default log level, and no
 * other Junction setting from this process's environment. Resolves at `junction ready`.
 */
export async function startService(input: {
  rpcUrl: string;
  deploymentPath: string;
  /** Called with the service's pid as soon as it is spawned (to sample it from the start). */
  onSpawn?: (pid: number) => void;
  /** Writes a V8 CPU profile of the service's whole run here, on its exit. */
  cpuProfDir?: string;
  /** The node's WebSocket endpoint (`JUNCTION_RPC_WS_URL`), for heads by subscription. */
  wsUrl?: string;
}): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "junction-scale-"));
  const logPath = join(dataDir, "service.log");
  const [port, partnerPort] = [await freePort(), await freePort()];
  const env = {
    ...operatorEnv(),
    JUNCTION_RPC_URL: input.rpcUrl,
    JUNCTION_DEPLOYMENT: input.deploymentPath,
    JUNCTION_DATA_DIR: join(dataDir, "data"),
    JUNCTION_PORT: String(port),
    JUNCTION_PARTNER_PORT: String(partnerPort),
    ...(input.wsUrl ? { JUNCTION_RPC_WS_URL: input.wsUrl } : {}),
  };
  const started = performance.now();
  const profile = input.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${input.cpuProfDir}`] : [];
  // More flags for the service's node, to look inside a run (`BENCH_SCALE_NODE_FLAGS="--trace-gc"`).
  const extra = process.env.BENCH_SCALE_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, ...extra, ...profile, JUNCTION_BIN, "start"],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  input.onSpawn?.(child.pid!);
  // If the benchmark exits (an interrupt, an uncaught error), the service goes with it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let followedMs: number | undefined;
  let tail = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    if (followedMs !== undefined) return;
    tail = (tail + chunk.toString()).slice(-2000);
    if (FOLLOWED.test(tail)) followedMs = performance.now() - started;
  });
  const log = createWriteStream(logPath);
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      process.removeListener("exit", killOnExit);
      await stopChild(child);
      await new Promise((resolve) => log.end(resolve));
    })();
    return stopped;
  };
  try {
    await ready(child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${readFileSync(logPath, "utf8").slice(-3000)}`);
  }
  return {
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    readyMs: performance.now() - started,
    followedMs: () => followedMs,
    logPath,
    // The data dir goes; the log stays for a reader of the report.
    stop: async () => {
      await stop();
      rmSync(join(dataDir, "data"), { recursive: true, force: true });
    },
  };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let progress = "";
    const timer = setTimeout(
      () => reject(new Error("junction start: not ready within 20 minutes")),
      1_200_000,
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      progress = (progress + chunk.toString()).slice(-4000);
      if (progress.includes("junction ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`junction start exited (${signal ?? `code ${code}`}) before it was ready`));
    });
  });
}

/** SIGTERM (the service drains and stops), SIGKILL if it has not exited 30 s later. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

/** A free loopback port (test/e2e/spawn-service.ts has the same; importing it would load vitest). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
