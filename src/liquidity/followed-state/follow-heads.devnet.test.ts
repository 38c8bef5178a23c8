import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { startTcpProxy } from "../../../test/tcp-proxy.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { subscribeNewHeads } from "../../chain/new-heads.ts";
import { createPoolIndex, type PoolIndex } from "../pool-index/pool-index.ts";
import type { FollowModeChange } from "./follow-heads.ts";
import { createFollowedState } from "./follow-state.ts";

/**
 * Followed pool state stepped by the node's `newHeads` subscription (anvil serves WebSocket on its HTTP
 * port): a mined block moves the quote block on long before the poll would; a socket that cannot connect
 * or is cut falls back to polling and still follows, and comes back; a stopped follower leaves nothing open.
 */
let devnet: TestDevnet;
let client: PublicClient;
let index: PoolIndex;
let wsUrl: string;
beforeAll(async () => {
  devnet = await startTestDevnet();
  client = createChainClient({ url: devnet.rpcUrl, kind: "private" }) as PublicClient;
  index = createPoolIndex({
    client,
    contracts: devnet.manifest.contracts,
    fromBlock: BigInt(devnet.manifest.deploymentBlock),
  });
  await index.sync();
  wsUrl = devnet.rpcUrl.replace(/^http:/, "ws:");
});
afterAll(() => devnet?.dispose());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `condition`, at most `ms`: a bound on a wait, not a measurement of speed. */
async function until(condition: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A followed state over the devnet's pools, started with `options` and the heads of `url`. */
function follow(
  url: string,
  options: { pollMs: number; safetyPollMs: number; retryMs?: { first: number; max: number } },
) {
  const followed = createFollowedState({
    client,
    pools: () => index.pools(),
    ...(devnet.manifest.contracts.v4PoolManager
      ? { poolManager: devnet.manifest.contracts.v4PoolManager }
      : {}),
    staleAfterMs: 600_000,
  });
  const modes: FollowModeChange[] = [];
  const errors: unknown[] = [];
  const follower = followed.start({
    pollMs: options.pollMs,
    onError: (error) => errors.push(error),
    heads: {
      subscribe: (handlers) => subscribeNewHeads(url, handlers),
      safetyPollMs: options.safetyPollMs,
      ...(options.retryMs ? { retryMs: options.retryMs } : {}),
    },
    onMode: (change) => modes.push(change),
  });
  const quoteBlock = () => followed.quoteBlock()?.block.number;
  return { followed, follower, modes, errors, quoteBlock };
}

/** Mines one block and waits for the follower's quote block to reach it. */
async function mineAndFollow(quoteBlock: () => bigint | undefined, what: string) {
  await devnet.testClient.mine({ blocks: 1 });
  const head = await client.getBlockNumber();
  await until(() => quoteBlock() === head, what);
  return head;
}

describe("following new heads by subscription", () => {
  it("moves the quote block on at each mined block, with a poll a minute apart", {
    timeout: 60_000,
  }, async () => {
    const { follower, modes, errors, quoteBlock } = follow(wsUrl, { pollMs: 60_000, safetyPollMs: 60_000 });
    try {
      await until(() => follower.mode() === "subscription" && quoteBlock() !== undefined, "the subscription");
      expect(modes).toEqual([{ mode: "subscription", at: "start" }]);
      for (let i = 0; i < 3; i++) await mineAndFollow(quoteBlock, `the head announced by block ${i}`);
      // A burst of blocks: the follower ends at the newest.
      await devnet.testClient.mine({ blocks: 5 });
      const head = await client.getBlockNumber();
      await until(() => quoteBlock() === head, "the burst's newest head");
      expect(errors).toEqual([]);
    } finally {
      await follower.stop();
    }
  });

  it("polls when the endpoint cannot be reached, never naming its URL", { timeout: 60_000 }, async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const secretUrl = `ws://operator:s3cret@127.0.0.1:${port}/key-abc`;
    const { follower, modes, quoteBlock } = follow(secretUrl, { pollMs: 200, safetyPollMs: 60_000 });
    try {
      await until(() => modes.length > 0, "the start report");
      expect(modes).toMatchObject([{ mode: "polling", at: "start", error: { reason: "unreachable" } }]);
      const described = `${modes[0]!.error!.message} ${modes[0]!.error!.stack}`;
      for (const part of ["s3cret", "key-abc", secretUrl]) expect(described).not.toContain(part);
      await until(() => quoteBlock() !== undefined, "the first poll");
      await mineAndFollow(quoteBlock, "a polled head");
      expect(follower.mode()).toBe("polling");
    } finally {
      await follower.stop();
    }
  });

  it("falls back to polling when the socket is cut, and subscribes again once it can", {
    timeout: 60_000,
  }, async () => {
    const port = Number(new URL(devnet.rpcUrl).port);
    const proxy = await startTcpProxy({ host: "127.0.0.1", port });
    const { follower, modes, quoteBlock } = follow(`ws://127.0.0.1:${proxy.port}`, {
      pollMs: 200,
      safetyPollMs: 60_000,
      retryMs: { first: 200, max: 400 },
    });
    try {
      await until(() => follower.mode() === "subscription" && quoteBlock() !== undefined, "the subscription");
      await mineAndFollow(quoteBlock, "an announced head");

      proxy.cut();
      await until(() => follower.mode() === "polling", "the fallback");
      expect(modes.at(-1)).toMatchObject({ mode: "polling", at: "fallback", error: { reason: "closed" } });
      await mineAndFollow(quoteBlock, "a polled head while the socket is down");
      await mineAndFollow(quoteBlock, "another polled head");
      expect(follower.mode()).toBe("polling");

      proxy.restore();
      await until(() => follower.mode() === "subscription", "the recovery");
      expect(modes.at(-1)).toEqual({ mode: "subscription", at: "recovery" });
      await mineAndFollow(quoteBlock, "a head after the recovery");
    } finally {
      await follower.stop();
      await proxy.close();
    }
  });

  it("leaves nothing open once stopped: the process exits by itself", { timeout: 60_000 }, async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/fixtures/follow-heads-then-stop.ts", devnet.rpcUrl, wsUrl],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await until(
      () => stdout.includes("\n") || child.exitCode !== null,
      "the child to stop its followers",
      40_000,
    );
    // Then it must exit at once: well under the followers' one-minute timers and ws's 30 s closing handshake.
    const outcome = await Promise.race([exit, sleep(10_000).then(() => "still running" as const)]);
    if (outcome === "still running") child.kill("SIGKILL");
    expect({ outcome, stderr }).toEqual({ outcome: 0, stderr: "" });
    expect(JSON.parse(stdout.trim())).toEqual({ modes: ["subscription", "polling"] });
  });
});
