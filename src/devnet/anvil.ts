import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHAIN_ID } from "../chain/chain.ts";

/** Options for one anvil node. Defaults match the embedded devnet (docs/operating.md, "The devnet"). */
export type AnvilOptions = {
  /** Loopback port; 0 picks a free one. */
  port?: number;
  chainId?: number;
  /** Seconds between background blocks; transactions are also mined on arrival (`--mixed-mining`). */
  blockTime?: number;
  /** 1 makes `finalized` = latest - 2 and `safe` = latest - 1. */
  slotsInAnEpoch?: number;
  hardfork?: string;
  /** A state file (anvil's JSON state, as `--dump-state` writes it) to start from. */
  loadState?: string;
  /**
   * Where anvil writes its state when stopped (`--dump-state`). `stop` then gives it as long as the write
   * takes: minutes for a state of gigabytes, where the usual stop would kill it after 3 s.
   */
  dumpState?: string;
  /** Seconds to wait for anvil to listen (default 30); loading a large state takes minutes. */
  listenTimeoutSeconds?: number;
  /** ETH each of the ten dev accounts starts with (default 1,000,000). */
  balance?: number;
  /** Block gas limit (anvil's own default when absent). */
  gasLimit?: bigint;
  /** Transaction order within a block: anvil's default `fees` (highest tip first), or `fifo` (as they arrived). */
  order?: "fees" | "fifo";
  /** Fork this node's state and history (anvil reads what it lacks from it, lazily). */
  forkUrl?: string;
  /**
   * Keep no per-block state snapshots: only the latest state answers calls. With a fork, mining then costs
   * the same at any height (anvil 1.7 otherwise clones its state and, without a fork, hashes it every block).
   * A number keeps that many recent states in memory instead.
   */
  pruneHistory?: boolean | number;
  /** Override the binary (else the `@foundry-rs/anvil-<platform>` npm package, or `ANVIL_PATH`). */
  binary?: string;
};

export type Anvil = {
  rpcUrl: string;
  port: number;
  /** The guard process id; anvil itself is its only child. */
  pid: number;
  /** Stops anvil and waits for it to exit. Idempotent. */
  stop: () => Promise<void>;
};

export class AnvilStartError extends Error {
  override name = "AnvilStartError";
}

const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** Resolves the anvil binary shipped by `@foundry-rs/anvil`'s platform package (npm install scripts not needed). */
export function anvilBinary(): string {
  if (process.env.ANVIL_PATH) return process.env.ANVIL_PATH;
  const platform = process.platform === "win32" ? "win32" : process.platform;
  const pkg = `@foundry-rs/anvil-${platform}-${ARCH[process.arch] ?? process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
    return join(dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    throw new AnvilStartError(
      `anvil binary not found: install dependencies (npm install) or set ANVIL_PATH (looked for ${pkg})`,
    );
  }
}

const GUARD = join(dirname(fileURLToPath(import.meta.url)), "anvil-guard.mjs");
const READY = /Listening on ([\d.]+):(\d+)/;

/**
 * Starts anvil on loopback behind a guard process that kills it when this process exits for any reason
 * (no orphan nodes, even after SIGKILL). Resolves once anvil listens.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port ?? 0),
    "--chain-id",
    String(options.chainId ?? CHAIN_ID),
    "--hardfork",
    options.hardfork ?? "prague",
    "--slots-in-an-epoch",
    String(options.slotsInAnEpoch ?? 1),
    "--accounts",
    "10",
    "--balance",
    String(options.balance ?? 1_000_000),
  ];
  if (options.gasLimit !== undefined) args.push("--gas-limit", String(options.gasLimit));
  if (options.order) args.push("--order", options.order);
  if (options.loadState) args.push("--load-state", options.loadState);
  if (options.dumpState) args.push("--dump-state", options.dumpState);
  if (options.forkUrl) args.push("--fork-url", options.forkUrl);
  if (options.pruneHistory === true) args.push("--prune-history");
  else if (typeof options.pruneHistory === "number")
    args.push("--prune-history", String(options.pruneHistory));
  if (options.blockTime && options.blockTime > 0)
    args.push("--block-time", String(options.blockTime), "--mixed-mining");

  const child = spawn(process.execPath, [GUARD, options.binary ?? anvilBinary(), ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const port = await waitForListening(child, options.listenTimeoutSeconds ?? 30);
  let stopped: Promise<void> | undefined;
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Anything written first asks the guard for a patient stop (anvil-guard.mjs): the state is written.
        if (options.dumpState) child.stdin?.end("patient\n");
        else child.stdin?.end();
      });
      return stopped;
    },
  };
}

function waitForListening(child: ChildProcess, timeoutSeconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => fail(`anvil did not start listening within ${timeoutSeconds} s`),
      timeoutSeconds * 1000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // Keep draining anvil's output so a full pipe never blocks it.
      child.stdout?.removeListener("data", onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve(Number(match[2]));
    };
    const fail = (message: string) => {
      clearTimeout(timer);
      child.stdin?.end();
      reject(new AnvilStartError(`${message}\n${output.slice(-2000)}`));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => fail(`anvil exited with code ${code} before listening`));
    child.once("error", (error) => fail(`cannot start anvil: ${error.message}`));
  });
}
