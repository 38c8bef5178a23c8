import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createPublicClient, http } from "viem";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import { startAnvil } from "./anvil.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Children of a process (Linux /proc via ps), to find the anvil behind a guard. */
const childrenOf = (pid: number) =>
  execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);

async function waitFor(condition: () => boolean, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe("anvil process", () => {
  it("stops cleanly and frees its port", async () => {
    const anvil = await startAnvil({ chainId: CHAIN_ID });
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const [anvilPid] = childrenOf(anvil.pid);
    expect(anvilPid).toBeGreaterThan(0);
    await anvil.stop();
    expect(alive(anvil.pid)).toBe(false);
    expect(await waitFor(() => !alive(anvilPid!), 5_000)).toBe(true);
    await expect(client.getChainId()).rejects.toThrow();
  });

  it("writes its state on stop when asked to dump it, and starts again from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-dump-"));
    try {
      const statePath = join(dir, "state.json");
      const first = await startAnvil({ dumpState: statePath });
      await createPublicClient({ transport: http(first.rpcUrl) }).request({
        method: "anvil_mine" as never,
        params: ["0x7"] as never,
      });
      await first.stop();
      expect(existsSync(statePath)).toBe(true);
      const second = await startAnvil({ loadState: statePath });
      try {
        expect(await createPublicClient({ transport: http(second.rpcUrl) }).getBlockNumber()).toBe(7n);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves no orphan when the owning process is SIGKILLed", async () => {
    const owner = spawn(process.execPath, ["--import", "tsx", "test/fixtures/hold-anvil.ts"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: owner.stdout! }).once("line", resolve);
      owner.once("exit", () => reject(new Error("owner exited early")));
    });
    const { guard } = JSON.parse(line) as { guard: number };
    const [anvilPid] = childrenOf(guard);
    expect(alive(anvilPid!)).toBe(true);

    owner.kill("SIGKILL");
    expect(await waitFor(() => !alive(guard) && !alive(anvilPid!), 10_000)).toBe(true);
  });
});
