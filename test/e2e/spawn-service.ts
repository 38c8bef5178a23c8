import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { copySnapshot } from "../devnet.ts";

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export type SpawnedService = {
  process: ChildProcess;
  dataDir: string;
  baseUrl: string;
  partnerUrl: string;
  rpcUrl: string;
  env: NodeJS.ProcessEnv;
  /** Everything the service printed so far. */
  output: () => string;
  manifest: () => Manifest;
  /**
   * Runs the `junction` CLI with the service's settings (same data dir and database), and `extraEnv` on
   * top; never throws.
   */
  cli: (
    args: string[],
    extraEnv?: Record<string, string>,
  ) => Promise<{ code: number; stdout: string; stderr: string }>;
  kill: () => void;
};

/**
 * Runs the real `junction start` (as the README's quick start does) on a copy of the test snapshot, or on
 * `dataDir` (a restart on what an earlier start left).
 */
export async function spawnService(
  extraEnv: Record<string, string> = {},
  /** `command`: a shell line to run instead of `node bin/junction.js start` (a printed hint, as printed). */
  options: { dataDir?: string; command?: string } = {},
): Promise<SpawnedService> {
  const dataDir = options.dataDir ?? copySnapshot();
  // A free port can be taken between picking it and the service binding it, seconds later (by another
  // test's node or connection): the service then stops with "already in use", and starts again on others.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(extraEnv, options, dataDir);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(
  extraEnv: Record<string, string>,
  options: { command?: string },
  dataDir: string,
): Promise<SpawnedService> {
  const [port, partnerPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JUNCTION_DATA_DIR: dataDir,
    JUNCTION_PORT: String(port),
    JUNCTION_PARTNER_PORT: String(partnerPort),
    JUNCTION_DEVNET_PORT: "0",
    JUNCTION_LOG_LEVEL: "warn",
    ...extraEnv,
  };
  // Against an external node (JUNCTION_RPC_URL) the devnet settings do not apply.
  if (extraEnv.JUNCTION_RPC_URL) delete env.JUNCTION_DEVNET_PORT;
  // The service runs on the embedded database unless a test asks for a server.
  if (!extraEnv.DATABASE_URL) delete env.DATABASE_URL;
  // A shell line runs in its own process group, so a kill reaches the service under npx and sh.
  const child = options.command
    ? spawn("sh", ["-c", options.command], { env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : spawn(process.execPath, ["bin/junction.js", "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 90_000);
    child.stderr!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("junction ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      const message = `service exited with ${code}:\n${output}`;
      const taken = [port, partnerPort].some((p) =>
        output.includes(`port ${p} on 127.0.0.1 is already in use`),
      );
      reject(taken ? new PortTakenError(message) : new Error(message));
    });
  });
  const rpcUrl = /rpc\s+(http:\/\/\S+)/.exec(output)?.[1];
  if (!rpcUrl) throw new Error(`no rpc URL in the service output:\n${output}`);
  const run = promisify(execFile);
  return {
    process: child,
    dataDir,
    baseUrl: `http://127.0.0.1:${port}`,
    partnerUrl: `http://127.0.0.1:${partnerPort}`,
    rpcUrl,
    env,
    output: () => output,
    manifest: () => JSON.parse(readFileSync(join(dataDir, "devnet", "manifest.json"), "utf8")) as Manifest,
    async cli(args, extraEnv = {}) {
      try {
        const { stdout, stderr } = await run(process.execPath, ["bin/junction.js", ...args], {
          env: { ...env, ...extraEnv },
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
      }
    },
    kill() {
      if (options.command) process.kill(-child.pid!, "SIGKILL");
      else child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
