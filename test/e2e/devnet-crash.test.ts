import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { junctionChain } from "../../src/chain/chain.ts";
import { SAVE_INTERVAL_MS } from "../../src/devnet/chain-saver.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { copySnapshot } from "../devnet.ts";

/**
 * `junction devnet` (the node `junction start` runs) under kill -9: a transaction whose receipt was
 * returned is saved soon after, without waiting for the idle chain's periodic save, and survives a restart.
 */
const dataDir = copySnapshot();
const statePath = join(dataDir, "devnet", "state.json");
let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill("SIGKILL");
});

async function runDevnet(): Promise<{ child: ChildProcess; rpcUrl: string; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, JUNCTION_DATA_DIR: dataDir, JUNCTION_DEVNET_PORT: "0" };
  delete env.JUNCTION_RPC_URL;
  const child = spawn(process.execPath, ["bin/junction.js", "devnet"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  running = child;
  let output = "";
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      output += chunk;
      const match = /rpc\s+(http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`junction devnet exited with ${code}:\n${output}`)));
  });
  return { child, rpcUrl, output: () => output };
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const clientsFor = (rpcUrl: string) => {
  const manifest = JSON.parse(readFileSync(join(dataDir, "devnet", "manifest.json"), "utf8")) as Manifest;
  const chain = junctionChain(rpcUrl);
  return {
    manifest,
    public: createPublicClient({ chain, transport: http(rpcUrl), cacheTime: 0, pollingInterval: 50 }),
    wallet: createWalletClient({
      chain,
      transport: http(rpcUrl),
      account: privateKeyToAccount(manifest.accounts[3]!.privateKey as Hex),
    }),
  };
};

describe("the devnet's chain under kill -9", () => {
  it("keeps a transaction whose receipt was returned, saved well before the idle chain's periodic save", async () => {
    const first = await runDevnet();
    const readyAt = Date.now();
    const before = clientsFor(first.rpcUrl);
    const hash = await before.wallet.sendTransaction({ to: before.manifest.accounts[4]!.address, value: 7n });
    const receipt = await before.public.waitForTransactionReceipt({ hash });
    // The save follows the transaction's block: it is on disk long before the periodic save (30 s after
    // the start) could have written it, which would not have happened yet.
    await waitFor(
      () => readFileSync(statePath, "utf8").includes(hash),
      readyAt + SAVE_INTERVAL_MS / 2 - Date.now(),
      "the transaction in the saved state",
    );
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;

    // The restart takes over the lock the killed process left, and restores the saved chain.
    const second = await runDevnet();
    expect(second.output()).toMatch(/warm boot/);
    const after = clientsFor(second.rpcUrl);
    const kept = await after.public.getTransactionReceipt({ hash });
    expect(kept.blockHash).toBe(receipt.blockHash);
    expect(kept.status).toBe("success");
    const exitedAgain = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    await exitedAgain;
    rmSync(dataDir, { recursive: true, force: true });
  });
});
