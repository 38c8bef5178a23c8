import { setTimeout as sleep } from "node:timers/promises";
import type { PoolIndex, SyncResult } from "../liquidity/pool-index/pool-index.ts";
import type { IndexFreshness } from "./index-freshness.ts";
import type { IndexerRole } from "./indexer-role.ts";

/** How often a reader checks for the indexer's first save. */
const WAIT_FOR_SAVE_MS = 1_000;

/**
 * The pool index's first sync at start: the indexer scans the chain (from its saved block, if any); another
 * process reads the indexer's saved index, waiting for its first save when there is none yet (a second
 * process does not scan a long chain beside the first), or becomes the indexer itself once the lease frees.
 * Each attempt first reads the node's head, so the role knows the node answers and `freshness` measures
 * the index against it from the start.
 */
export async function indexAtStart(
  at: {
    index: PoolIndex;
    role: IndexerRole;
    freshness: IndexFreshness;
    readHead: () => Promise<bigint>;
  },
  progress: (line: string) => void,
): Promise<SyncResult> {
  const { index, role, freshness } = at;
  const started = Date.now();
  let waiting = false;
  for (;;) {
    const readAt = Date.now();
    const head = await at.readHead();
    freshness.observe(head, index.syncedTo()?.number, readAt);
    if (await role.claim()) {
      const indexed = await index.sync();
      freshness.observe(indexed.to, index.syncedTo()?.number, readAt);
      if (indexed.resumed)
        progress(
          `pool index resumed from the database at block ${indexed.resumed.block} (${indexed.resumed.pools} pools), scanned ${indexed.to - indexed.from + 1n} new blocks in ${Date.now() - started} ms`,
        );
      return indexed;
    }
    const read = await index.refresh();
    if (read) {
      freshness.observe(head, index.syncedTo()?.number, readAt);
      progress(
        `pool index read from the database at block ${read.to} (${index.pools().length} pools; another process is the indexer)`,
      );
      return read;
    }
    if (!waiting)
      progress("waiting for the indexer's first save of the pool index (another process indexes)");
    waiting = true;
    await sleep(WAIT_FOR_SAVE_MS);
  }
}
