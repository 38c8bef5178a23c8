import type { Address, PublicClient } from "viem";
import type { IndexedPool } from "../pool-index/pool.ts";
import type { BlockJournal } from "./block-journal.ts";
import { readFollowed } from "./read-followed.ts";

/**
 * How many pools are followed of how many routable pools the index holds, and how many are left to read
 * (0: taken in, bar those that failed and wait to be tried again).
 */
export type AdoptionProgress = { followed: number; indexed: number; left: number };

export type AdoptionOptions = {
  client: Pick<PublicClient, "call" | "readContract">;
  /** The followed state's journal: adoption reads at its head and puts what it read there. */
  journal: BlockJournal;
  poolManager: Address | undefined;
  /** Pools a sample found wrong: never read in again. */
  distrusted: ReadonlySet<string>;
  /** Blocks before a pool that failed to read is tried again. */
  retryAfterBlocks: bigint;
  /** Pools read at a time; one chunk and more until a step has spent `budgetMs` reading. */
  chunk: number;
  budgetMs: number;
  now: () => number;
  /** After each step that read pools in. */
  onAdopted?: (progress: AdoptionProgress) => void;
};

/**
 * Takes pools into the followed state (docs/architecture.md, "The head follower"): those not followed yet
 * (at start, all of them) chunk by chunk within a time budget per step, so a large index is taken in over
 * several blocks while each block is still applied on time, and, first, those whose price left the words
 * they hold, read again around the new price. A pool that fails to read waits `retryAfterBlocks`.
 */
export function createAdoption(options: AdoptionOptions) {
  const {
    client,
    journal,
    poolManager,
    distrusted,
    retryAfterBlocks,
    chunk: chunkSize,
    budgetMs,
    now,
  } = options;
  /** Pools whose price left the held window: read again by the next step. */
  const reread = new Set<string>();
  const failedAt = new Map<string, bigint>();
  /** When adoption last found nothing to read; until the index or the held set changes, it need not look. */
  let settled: { pools: Map<string, IndexedPool>; membership: number } | undefined;

  /**
   * Reads, at the applied head, the pools not followed yet and those whose price left the held window
   * (those first: the step that moved them, or a quote, asked), in chunks until the step's budget is spent.
   */
  async function adopt(pools: Map<string, IndexedPool>): Promise<number> {
    const head = journal.head();
    if (!head) return 0;
    const due = (failed: bigint) => head.number - failed >= retryAfterBlocks || head.number < failed;
    const unchanged =
      settled?.pools === pools && settled.membership === journal.membership && reread.size === 0;
    if (unchanged && ![...failedAt.values()].some(due)) return 0;
    const wanted = [...reread].filter((key) => pools.has(key) && !distrusted.has(key));
    for (const key of pools.keys()) {
      if (distrusted.has(key) || reread.has(key) || journal.latest(key)) continue;
      const failed = failedAt.get(key);
      if (failed === undefined || due(failed)) wanted.push(key);
    }
    settled = wanted.length === 0 ? { pools, membership: journal.membership } : undefined;
    const started = now();
    let read = 0;
    let from = 0;
    for (; from < wanted.length; from += chunkSize) {
      // One chunk each step at least, more while the budget lasts.
      if (from > 0 && now() - started >= budgetMs) break;
      const chunk = wanted.slice(from, from + chunkSize);
      const states = await readFollowed(
        client,
        chunk.map((key) => pools.get(key)!),
        head.number,
        poolManager,
      );
      if (journal.head()?.hash !== head.hash) break;
      for (const key of chunk) {
        reread.delete(key);
        const state = states.get(pools.get(key)!);
        if (state) {
          journal.set(key, state);
          failedAt.delete(key);
        } else failedAt.set(key, head.number);
      }
      read += states.size;
    }
    if (wanted.length > 0)
      options.onAdopted?.({
        followed: journal.size,
        indexed: pools.size,
        left: Math.max(0, wanted.length - from),
      });
    return read;
  }

  return {
    adopt,
    /** The pool's price left the words it holds: the next `adopt` reads it again, before any new pool. */
    readAgain: (key: string) => {
      reread.add(key);
    },
    /** Every pool is read anew (a reread at a head too far to connect): none that failed waits any more. */
    forgetFailures: () => {
      failedAt.clear();
    },
  };
}
