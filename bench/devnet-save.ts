import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createPublicClient, createTestClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { junctionChain } from "../src/chain/chain.ts";
import { saveState } from "../src/devnet/chain-saver.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { machineLine, table } from "./machine.ts";
import { median, percentile } from "./measure.ts";

const SAVES = 8;
/** How long after a receipt each kill -9 lands. */
const KILL_DELAYS_MS = [0, 1_000, 3_000];
const STREAM_MS = 20_000;
const STREAM_GAP_MS = 100;

/**
 * `npm run bench -- save`: what the persisted devnet (`junction devnet`, as `junction start` runs it) costs
 * to save and what a kill -9 loses: the time and size of one save of the seeded chain; for a kill -9 at
 * several delays after a transaction's receipt, whether the transaction survived the restart and how many
 * blocks were lost; and under a stream of transactions (one every STREAM_GAP_MS, each awaited), how often
 * the state file was replaced and the receipts' latency.
 */
export async function benchDevnetSave(devnet: Devnet, log: (line: string) => void): Promise<string[]> {
  const scratch = mkdtempSync(join(tmpdir(), "junction-bench-save-"));
  try {
    const cost = await saveCost(devnet, join(scratch, "state.json"));
    const dataDir = join(scratch, "data");
    cpSync(dirname(devnet.manifestPath), join(dataDir, "devnet"), { recursive: true });
    const kills: string[][] = [];
    for (const delay of KILL_DELAYS_MS) {
      log(`save: kill -9 ${delay} ms after a receipt`);
      kills.push(await killAfterReceipt(dataDir, delay, devnet));
    }
    log(`save: a stream of transactions for ${STREAM_MS / 1000} s`);
    const stream = await streamOfTransactions(dataDir, devnet);
    return [
      machineLine(),
      "",
      ...table(
        ["one save of the chain", "median ms", "max ms", "state file"],
        [
          [
            `${SAVES} saves`,
            median(cost.ms).toFixed(0),
            Math.max(...cost.ms).toFixed(0),
            `${(cost.bytes / 1e6).toFixed(1)} MB`,
          ],
        ],
      ),
      "",
      ...table(["kill -9 after a receipt", "transaction after restart", "blocks lost"], kills),
      "",
      ...table(
        ["stream of transactions", "transactions", "saves", "saves/s", "receipt p50 ms", "receipt p90 ms"],
        [stream],
      ),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function saveCost(devnet: Devnet, path: string): Promise<{ ms: number[]; bytes: number }> {
  const client = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  const ms: number[] = [];
  for (let i = 0; i < SAVES; i++) {
    const started = performance.now();
    await saveState(client, path);
    ms.push(performance.now() - started);
  }
  return { ms, bytes: statSync(path).size };
}

type Running = { child: ChildProcess; rpcUrl: string };

/** Runs `junction devnet` on `dataDir` until it prints its RPC URL. */
async function runDevnet(dataDir: string): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, JUNCTION_DATA_DIR: dataDir, JUNCTION_DEVNET_PORT: "0" };
  delete env.JUNCTION_RPC_URL;
  const child = spawn(process.execPath, ["bin/junction.js", "devnet"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let output = "";
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      output += chunk;
      const match = /rpc\s+(http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`junction devnet exited with ${code}:\n${output}`)));
  });
  return { child, rpcUrl };
}

async function stopDevnet(running: Running, signal: "SIGKILL" | "SIGTERM"): Promise<void> {
  const exited = new Promise((resolve) => running.child.once("exit", resolve));
  running.child.kill(signal);
  await exited;
  // anvil's guard notices its parent is gone and stops anvil; give it the moment that takes.
  await sleep(500);
}

function clients(rpcUrl: string, devnet: Devnet) {
  const chain = junctionChain(rpcUrl);
  const transport = http(rpcUrl);
  const account = privateKeyToAccount(devnet.manifest.accounts[3]!.privateKey as Hex);
  return {
    public: createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 20 }),
    wallet: createWalletClient({ chain, transport, account }),
    to: devnet.manifest.accounts[4]!.address,
  };
}

async function killAfterReceipt(dataDir: string, delay: number, devnet: Devnet): Promise<string[]> {
  const first = await runDevnet(dataDir);
  const before = clients(first.rpcUrl, devnet);
  const hash = await before.wallet.sendTransaction({ to: before.to, value: 1n });
  await before.public.waitForTransactionReceipt({ hash });
  await sleep(delay);
  const head = await before.public.getBlockNumber();
  await stopDevnet(first, "SIGKILL");
  const second = await runDevnet(dataDir);
  const after = clients(second.rpcUrl, devnet);
  const kept = await after.public.getTransactionReceipt({ hash }).then(
    () => true,
    () => false,
  );
  const lost = head - (await after.public.getBlockNumber());
  await stopDevnet(second, "SIGTERM");
  return [`${delay} ms`, kept ? "kept" : "lost", String(lost > 0n ? lost : 0n)];
}

async function streamOfTransactions(dataDir: string, devnet: Devnet): Promise<string[]> {
  const running = await runDevnet(dataDir);
  const { public: client, wallet, to } = clients(running.rpcUrl, devnet);
  const statePath = join(dataDir, "devnet", "state.json");
  let saves = 0;
  let inode = statSync(statePath).ino;
  const watch = setInterval(() => {
    const now = statSync(statePath, { throwIfNoEntry: false })?.ino;
    if (now !== undefined && now !== inode) {
      inode = now;
      saves++;
    }
  }, 10);
  const latencies: number[] = [];
  const until = performance.now() + STREAM_MS;
  while (performance.now() < until) {
    const sent = performance.now();
    const hash = await wallet.sendTransaction({ to, value: 1n });
    await client.waitForTransactionReceipt({ hash });
    latencies.push(performance.now() - sent);
    await sleep(STREAM_GAP_MS);
  }
  clearInterval(watch);
  await stopDevnet(running, "SIGTERM");
  return [
    `one every ${STREAM_GAP_MS} ms for ${STREAM_MS / 1000} s`,
    String(latencies.length),
    String(saves),
    (saves / (STREAM_MS / 1000)).toFixed(2),
    median(latencies).toFixed(0),
    percentile(latencies, 90).toFixed(0),
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
