import type { PersistedPool } from "./persistence.ts";
import { parsePool } from "./pool.ts";
import { PoolSet } from "./pool-set.ts";
import { type Tip, TipHistory } from "./tip-history.ts";

/**
 * What the pool index holds: its verified pools, the tips of its past syncs, and the V4 ids seen in activity
 * whose key could not be resolved (not retried until a reorg). Changed only by a sync (adding pools,
 * recording a tip), `rollBack` and `takeSaved`.
 */
export type IndexState = { pools: PoolSet; tips: TipHistory; unresolved: Set<string> };

/** An empty index that scans from `firstBlock`. */
export function createIndexState(firstBlock: bigint): IndexState {
  return { pools: new PoolSet(), tips: new TipHistory(firstBlock), unresolved: new Set() };
}

export type RollBack = { rolledBack: number; reorg: boolean; keepThrough?: bigint };

/**
 * Undoes everything learned after the newest past tip that is still canonical. Only the node answering
 * another hash at a tip's height proves a reorg: a failed read, or a block the node says it does not have
 * (a lagging node, a backup behind the primary), throws and leaves the pools as they were, to be retried by
 * the next sync (docs/rules.md, ours: index rollback). A node whose head is below the newest tip cannot
 * be checked yet: nothing is rolled back, nothing scanned.
 */
export async function rollBack(
  state: IndexState,
  head: Tip,
  hashAt: (number: bigint) => Promise<string>,
): Promise<RollBack> {
  const last = state.tips.last();
  if (!last || last.number > head.number) return { rolledBack: 0, reorg: false };
  if ((await hashAt(last.number)) === last.hash) return { rolledBack: 0, reorg: false };
  const keepThrough = await state.tips.rewind(async (tip) => (await hashAt(tip.number)) === tip.hash);
  const rolledBack = state.pools.removeDiscoveredAfter(keepThrough);
  state.unresolved.clear();
  return { rolledBack, reorg: true, keepThrough };
}

/**
 * Takes a saved index (persistence.ts) as the index's own: its pools added (all of
 * them when `full`, replacing what the index held) and its tips in place of the index's.
 */
export function takeSaved(
  state: IndexState,
  saved: { full: boolean; pools: PersistedPool[]; tips: string },
): void {
  if (saved.full) {
    state.pools.clear();
    state.unresolved.clear();
  }
  for (const row of saved.pools) state.pools.add(parsePool(row.pool));
  state.tips.replace(saved.tips);
}
