import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { copySnapshot } from "../../test/devnet.ts";
import { junctionChain } from "../chain/chain.ts";
import { startDevnet } from "./devnet.ts";

describe("devnet boots", () => {
  it("continues from saved state on a warm start, with the same deployment", async () => {
    const dataDir = copySnapshot();
    try {
      const first = await startDevnet({ dataDir, persist: true });
      expect(first.boot.kind).toBe("warm");
      const chain = junctionChain(first.rpcUrl);
      const account = privateKeyToAccount(first.manifest.accounts[7]!.privateKey);
      const wallet = createWalletClient({ chain, transport: http(first.rpcUrl), account });
      const client = createPublicClient({ chain, transport: http(first.rpcUrl), pollingInterval: 50 });
      const recipient = "0x000000000000000000000000000000000000bEEF";
      const hash = await wallet.sendTransaction({ to: recipient, value: parseEther("1.5") });
      const receipt = await client.waitForTransactionReceipt({ hash });
      await first.stop();

      const second = await startDevnet({ dataDir, persist: true });
      try {
        expect(second.boot.kind).toBe("warm");
        expect(second.manifest.deploymentBlockHash).toBe(first.manifest.deploymentBlockHash);
        const again = createPublicClient({
          chain: junctionChain(second.rpcUrl),
          transport: http(second.rpcUrl),
        });
        expect(await again.getBalance({ address: recipient })).toBe(parseEther("1.5"));
        const restored = await again.getTransactionReceipt({ hash });
        expect(restored.blockHash).toBe(receipt.blockHash);
        expect(await again.getBlockNumber()).toBeGreaterThanOrEqual(receipt.blockNumber);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("boots cold, with a reason, when the saved state is unreadable", async () => {
    const dataDir = copySnapshot();
    try {
      writeFileSync(join(dataDir, "devnet", "state.json"), "{ truncated");
      const lines: string[] = [];
      const devnet = await startDevnet({ dataDir, progress: (line) => lines.push(line) });
      try {
        expect(devnet.boot.kind).toBe("cold");
        expect(lines.join("\n")).toMatch(/could not load the saved chain state/);
        expect(devnet.manifest.pools.length).toBeGreaterThanOrEqual(100);
      } finally {
        await devnet.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
