import type { Address } from "viem";
import type { ObservedStep } from "../liquidity/followed-state/follow-state.ts";
import type { HeadBlock, PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { IndexFreshness } from "./index-freshness.ts";

/**
 * Blocks between an activation scan or a settlement sync when no log calls for one: they then catch what
 * the logs cannot tell (a workspace created after its code was registered, the finalized block moving on).
 */
export const IDLE_TASK_EVERY = 8n;

/** How often a process that is not the indexer takes the indexer's saved index while the head stands still. */
const REFRESH_IDLE_MS = 5_000;

export type HeadTaskDeps = {
  index: PoolIndex;
  /** Whether this process indexes the chain now (src/runtime/indexer-role.ts): only the indexer writes. */
  isIndexer: () => boolean;
  freshness: IndexFreshness;
  activations: { scan: (toBlock?: bigint) => Promise<void> };
  settlements: { sync: () => Promise<{ to: bigint }> };
  /**
   * Where settlements are recorded (the collector's `Settled`, the executor's `Attributed`): a block with
   * their logs holds a settlement the settlement index takes at finality.
   */
  recorders: readonly Address[];
  /** Settlement facts seen at the head: confirming and reorged settlement events (src/events). */
  facts?: { observe: (blocks: readonly HeadBlock[]) => Promise<void> };
  onIndexError: (error: unknown) => void;
  onSettlementError: (error: unknown) => void;
  now?: () => number;
};

/**
 * The chain's per-block tasks, driven by the head follower's steps (docs/architecture.md, "The head
 * follower") instead of each polling the node on its own clock:
 * - the pool index advances over each step's blocks from the creation events among their logs (the
 *   indexer), or takes the indexer's save (another process), and its freshness is measured at every step;
 * - the registry's activations are scanned when a block's logs show the registry changed;
 * - the settlement index syncs while a block with a settlement's logs waits for finality;
 * - settlement facts (confirming and reorged events) are taken from each step's blocks.
 * Activations and settlements also run every `IDLE_TASK_EVERY` blocks, and every task after a step that
 * read no logs (a reorg past the follower's reach, a first step). Each task runs one at a time; steps that
 * come while it runs make it run once more, with the blocks they brought.
 */
export function headTasks(deps: HeadTaskDeps) {
  const now = deps.now ?? Date.now;
  const recorders = new Set(deps.recorders.map((address) => address.toLowerCase()));
  let stopped = false;
  let head: { number: bigint; hash: `0x${string}` } | undefined;
  let blocks: HeadBlock[] = [];
  let factBlocks: HeadBlock[] = [];
  let syncTo: { number: bigint; hash: `0x${string}` } | undefined;
  let refreshedAt = Number.NEGATIVE_INFINITY;
  let settledWaiting: bigint | undefined;
  let first = true;

  const indexTask = coalesced(async () => {
    const taken = blocks;
    blocks = [];
    const target = syncTo;
    syncTo = undefined;
    const seen = head!;
    const at = now();
    try {
      if (deps.isIndexer()) {
        if (!target && taken.length > 0) await deps.index.advance(taken);
        // Behind the head after all (just become the indexer, a reorg, a failed advance): a sync of its own.
        if (deps.index.syncedTo()?.hash !== seen.hash) await deps.index.sync(seen);
        else await deps.index.flush();
      } else {
        refreshedAt = at;
        await deps.index.refresh();
      }
      deps.freshness.observe(seen.number, deps.index.syncedTo()?.number, at);
    } catch (error) {
      deps.onIndexError(error);
    }
  });
  const activationTask = coalesced(async () => {
    if (deps.isIndexer()) await deps.activations.scan(head!.number);
  });
  const settlementTask = coalesced(async () => {
    if (!deps.isIndexer()) return;
    try {
      const synced = await deps.settlements.sync();
      if (settledWaiting !== undefined && synced.to >= settledWaiting) settledWaiting = undefined;
    } catch (error) {
      deps.onSettlementError(error);
    }
  });

  const factsTask = coalesced(async () => {
    const taken = factBlocks;
    factBlocks = [];
    if (!deps.isIndexer() || !deps.facts) return;
    try {
      await deps.facts.observe(taken);
    } catch (error) {
      deps.onSettlementError(error);
    }
  });

  function onBlocks(step: ObservedStep): void {
    if (stopped) return;
    head = step.head;
    const at = now();
    deps.freshness.observe(step.head.number, deps.index.syncedTo()?.number, at);
    const blind = first || (step.blocks.length === 0 && step.kind !== "unchanged");
    if (step.blocks.length > 0) {
      blocks.push(...step.blocks);
      if (deps.facts) {
        factBlocks.push(...step.blocks);
        factsTask.run();
      }
    }
    if (blind) syncTo = step.head;
    const idleTurn = (offset: bigint) =>
      step.blocks.length > 0 && step.head.number % IDLE_TASK_EVERY === offset;
    // The indexer saves tips it holds unsaved once due (a no-op otherwise); another process takes the
    // indexer's save at each new block, and now and then while the head stands still.
    if (step.blocks.length > 0 || syncTo || deps.isIndexer() || at - refreshedAt >= REFRESH_IDLE_MS)
      indexTask.run();
    for (const block of step.blocks)
      if (block.logs.some((log) => recorders.has(log.address.toLowerCase())))
        settledWaiting = block.number > (settledWaiting ?? 0n) ? block.number : settledWaiting;
    if (blind || step.watched || idleTurn(0n)) activationTask.run();
    if (blind || settledWaiting !== undefined || idleTurn(IDLE_TASK_EVERY / 2n)) settlementTask.run();
    first = false;
  }

  const idle = () =>
    Promise.all([indexTask.idle(), activationTask.idle(), settlementTask.idle(), factsTask.idle()]);
  return {
    onBlocks,
    /** Settles once the tasks running now (and those they run again) have. */
    idle: async () => {
      await idle();
    },
    /** Stops taking steps and waits for the running tasks. */
    stop: async () => {
      stopped = true;
      await idle();
    },
  };
}

/**
 * Runs `work` one at a time: a call while it runs makes it run once more after (however many calls came),
 * never twice at once. `work` reports its own failures.
 */
function coalesced(work: () => Promise<void>) {
  let running: Promise<void> | undefined;
  let again = false;
  return {
    run(): void {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await work();
        } while (again);
      })().finally(() => {
        running = undefined;
      });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
