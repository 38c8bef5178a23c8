import type { Hex, Log } from "viem";
import { describe, expect, it } from "vitest";
import type { ObservedStep } from "../liquidity/followed-state/follow-state.ts";
import type { HeadBlock, PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { headTasks, IDLE_TASK_EVERY } from "./head-tasks.ts";
import { createIndexFreshness } from "./index-freshness.ts";

/**
 * What the head follower's steps make the per-block tasks do (the scheduling alone, over recording fakes;
 * the service's wiring runs in the end-to-end tests and `npm run bench -- scale`).
 */

const COLLECTOR = "0x00000000000000000000000000000000000000c0";
const REGISTRY = "0x00000000000000000000000000000000000000e0";
const hash = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const log = (address: string) => ({ address }) as unknown as Log;

function block(number: bigint, logs: Log[] = []): HeadBlock {
  return { number, hash: hash(number), parentHash: hash(number - 1n), logs };
}

function harness(options: { indexer?: boolean } = {}) {
  const calls: string[] = [];
  let tip: { number: bigint; hash: Hex } | undefined = { number: 99n, hash: hash(99n) };
  const index = {
    syncedTo: () => tip,
    advance: async (blocks: readonly HeadBlock[]) => {
      calls.push(`advance ${blocks.map((b) => b.number).join(",")}`);
      const last = blocks.at(-1)!;
      tip = { number: last.number, hash: last.hash };
      return { from: blocks[0]!.number, to: last.number, added: 0, rolledBack: 0, reorg: false };
    },
    sync: async (target?: { number: bigint; hash: Hex }) => {
      calls.push(`sync ${target?.number}`);
      tip = target;
      return { from: 0n, to: target!.number, added: 0, rolledBack: 0, reorg: false };
    },
    flush: async () => {},
    refresh: async () => {
      calls.push("refresh");
      return undefined;
    },
  } as unknown as PoolIndex;
  const indexer = { now: options.indexer ?? true };
  const tasks = headTasks({
    index,
    isIndexer: () => indexer.now,
    freshness: createIndexFreshness(),
    activations: {
      scan: async (to) => {
        calls.push(`activations ${to}`);
      },
    },
    settlements: {
      sync: async () => {
        calls.push("settlements");
        return { to: finalized.number };
      },
    },
    recorders: [COLLECTOR],
    onIndexError: (error) => calls.push(`index error ${error}`),
    onSettlementError: (error) => calls.push(`settlement error ${error}`),
  });
  const finalized = { number: 0n };
  const step = async (step: Partial<Omit<ObservedStep, "head">> & { head: bigint }) => {
    tasks.onBlocks({
      kind: step.kind ?? (step.blocks?.length ? "applied" : "unchanged"),
      head: { number: step.head, hash: hash(step.head) },
      blocks: step.blocks ?? [],
      watched: step.watched ?? false,
    });
    await tasks.idle();
  };
  return { calls, step, finalized, indexer, tasks };
}

describe("headTasks", () => {
  it("advances the index over each step's blocks and runs the other tasks only when logs or turns call", async () => {
    const { calls, step } = harness();
    // The first step read no logs: everything runs, the index syncs to the head.
    await step({ head: 100n, kind: "reread" });
    expect(calls.splice(0)).toEqual(["sync 100", "activations 100", "settlements"]);
    // A quiet block: the index advances over it, nothing else.
    await step({ head: 101n, blocks: [block(101n)] });
    expect(calls.splice(0)).toEqual(["advance 101"]);
    // The head unchanged: nothing at all.
    await step({ head: 101n });
    expect(calls.splice(0)).toEqual([]);
    // The registry logged: its activations are scanned up to the head.
    await step({ head: 102n, blocks: [block(102n, [log(REGISTRY)])], watched: true });
    expect(calls.splice(0)).toEqual(["advance 102", "activations 102"]);
  });

  it("syncs the settlement index at every step until the block with the collector's logs is finalized", async () => {
    const { calls, step, finalized } = harness();
    await step({ head: 100n, kind: "reread" });
    calls.splice(0);
    finalized.number = 99n;
    await step({ head: 101n, blocks: [block(101n, [log(COLLECTOR)])] });
    expect(calls.splice(0)).toEqual(["advance 101", "settlements"]);
    await step({ head: 102n, blocks: [block(102n)] });
    expect(calls.splice(0)).toEqual(["advance 102", "settlements"]);
    finalized.number = 101n;
    await step({ head: 103n, blocks: [block(103n)] });
    expect(calls.splice(0)).toEqual(["advance 103", "settlements"]);
    // Taken: quiet blocks sync it no more (until its turn).
    await step({ head: 105n, blocks: [block(104n), block(105n)] });
    expect(calls.splice(0)).toEqual(["advance 104,105"]);
  });

  it(`scans activations and syncs settlements every ${IDLE_TASK_EVERY}th block on a quiet chain`, async () => {
    const { calls, step } = harness();
    await step({ head: 100n, kind: "reread" });
    calls.splice(0);
    for (let n = 101n; n <= 116n; n++) await step({ head: n, blocks: [block(n)] });
    expect(calls.filter((call) => !call.startsWith("advance"))).toEqual([
      "activations 104",
      "settlements",
      "activations 112",
      "settlements",
    ]);
    expect(calls.filter((call) => call.startsWith("advance"))).toHaveLength(16);
  });

  it("hands the blocks of steps taken while the index works to its next run, together", async () => {
    const { calls, tasks } = harness();
    tasks.onBlocks({ kind: "reread", head: { number: 100n, hash: hash(100n) }, blocks: [], watched: false });
    for (const n of [101n, 102n, 103n])
      tasks.onBlocks({
        kind: "applied",
        head: { number: n, hash: hash(n) },
        blocks: [block(n)],
        watched: false,
      });
    await tasks.idle();
    expect(calls.filter((call) => /^(sync|advance)/.test(call))).toEqual(["sync 100", "advance 101,102,103"]);
  });

  it("in a process that is not the indexer: takes the indexer's save at new blocks, writes nothing", async () => {
    const { calls, step } = harness({ indexer: false });
    await step({ head: 100n, kind: "reread" });
    await step({ head: 101n, blocks: [block(101n, [log(COLLECTOR), log(REGISTRY)])], watched: true });
    await step({ head: 101n });
    expect(calls).toEqual(["refresh", "refresh"]);
  });

  it("a process that became the indexer syncs to the head, even with no new block", async () => {
    const { calls, step, indexer } = harness({ indexer: false });
    await step({ head: 100n, kind: "reread" });
    await step({ head: 103n, blocks: [block(101n), block(102n), block(103n)] });
    calls.splice(0);
    indexer.now = true;
    await step({ head: 103n });
    expect(calls).toEqual(["sync 103"]);
  });
});
