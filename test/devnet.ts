import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { inject } from "vitest";
import { junctionChain } from "../src/chain/chain.ts";
import { type Devnet, startDevnet } from "../src/devnet/devnet.ts";

export type TestDevnet = Devnet & {
  dataDir: string;
  publicClient: ReturnType<typeof createPublicClient>;
  testClient: ReturnType<typeof createTestClient>;
  /**
   * A wallet for funded account `index` (1-9: governance is 1, the demo builder's owner 2) or the treasury
   * (10), signing locally like a user's wallet.
   */
  wallet: (index: number) => ReturnType<typeof createWalletClient>;
  /** Stops the node and removes its data directory. */
  dispose: () => Promise<void>;
};

/** Copies the seeded snapshot into a fresh data dir, so a test may mutate or persist it freely. */
export function copySnapshot(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "junction-devnet-"));
  cpSync(join(inject("devnetSnapshotDir"), "devnet"), join(dataDir, "devnet"), { recursive: true });
  return dataDir;
}

/** Starts a private devnet for one test file, restored from the run's snapshot (a warm boot). */
export async function startTestDevnet(options: { blockTime?: number } = {}): Promise<TestDevnet> {
  const dataDir = copySnapshot();
  const devnet = await startDevnet({ dataDir, blockTime: options.blockTime ?? 0 });
  if (devnet.boot.kind !== "warm")
    throw new Error(`test devnet booted ${devnet.boot.kind}: ${devnet.boot.reason}`);
  const chain = junctionChain(devnet.rpcUrl);
  const transport = http(devnet.rpcUrl);
  return {
    ...devnet,
    dataDir,
    publicClient: createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 50 }),
    testClient: createTestClient({
      chain,
      transport,
      mode: "anvil",
      cacheTime: 0,
      pollingInterval: 50,
    }).extend(publicActions),
    wallet: (index) => {
      const account = devnet.manifest.accounts[index];
      if (!account || account.role === "deployer") throw new Error(`no funded test account ${index}`);
      return createWalletClient({
        chain,
        transport,
        account: privateKeyToAccount(account.privateKey as Hex),
      });
    },
    dispose: async () => {
      await devnet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
