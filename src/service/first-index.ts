import { setTimeout as sleep } from "node:timers/promises";
import type { PoolIndex, SyncResult } from "../liquidity/pool-index/pool-index.ts";
import type { IndexerRole } from "./indexer-role.ts";

/** How often a reader checks for the indexer's first save. */
const WAIT_FOR_SAVE_MS = 1_000;

/**
 * The pool index's first sync at start: the indexer scans the chain (from its saved block, if any); another
 * process reads the indexer's saved index, waiting for its first save when there is none yet (a second
 * process does not scan a long chain beside the first), or becomes the indexer itself once the lease frees.
 */
export async function indexAtStart(
  index: PoolIndex,
  role: IndexerRole,
  progress: (line: string) => void,
): Promise<SyncResult> {
  const started = Date.now();
  let waiting = false;
  for (;;) {
    if (await role.claim()) {
      const indexed = await index.sync();
      if (indexed.resumed)
        progress(
          `pool index resumed from the database at block ${indexed.resumed.block} (${indexed.resumed.pools} pools), scanned ${indexed.to - indexed.from + 1n} new blocks in ${Date.now() - started} ms`,
        );
      return indexed;
    }
    const read = await index.refresh();
    if (read) {
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
