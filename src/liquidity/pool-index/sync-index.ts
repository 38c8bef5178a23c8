import type { Hex, Log } from "viem";
import {
  addDiscovered,
  CHECKPOINT_BLOCKS,
  type DiscoveryChain,
  discoverPools,
  discoveryLogs,
} from "./discovery.ts";
import { type IndexState, rollBack } from "./index-state.ts";
import type { SavedIndex } from "./saved-index.ts";
import type { SyncResult } from "./sync-result.ts";
import type { Tip } from "./tip-history.ts";

/**
 * One sync of the index from the chain, in stages: the saved index restored (the first sync only), the
 * target tip (default: the latest block), a reorg's rollback, the pools discovered since the last tip, the
 * tip recorded, the changes saved. A long scan (a first start on a long chain) runs in steps of
 * `checkpointBlocks`, each recorded and saved as it ends, so a restart resumes from the last step.
 */
export async function syncIndex(
  chain: DiscoveryChain,
  state: IndexState,
  saved: SavedIndex | undefined,
  target?: Tip,
): Promise<SyncResult> {
  const resumed = await saved?.restoreOnce(state);
  const tip = target ?? (await latestTip(chain));
  const { rolledBack, reorg, keepThrough } = await rollBack(state, tip, (number) => hashAt(chain, number));
  if (keepThrough !== undefined) saved?.rolledBackTo(keepThrough);
  const from = state.tips.scannedThrough() + 1n;
  const step = chain.checkpointBlocks ?? CHECKPOINT_BLOCKS;
  const onRange = (through: bigint) =>
    chain.onScanned?.({ from, through, to: tip.number, pools: state.pools.size });
  let added = 0;
  for (let start = from; ; ) {
    const last = tip.number - start + 1n <= step;
    const end = last ? tip : await tipAt(chain, start + step - 1n);
    const found = await discoverPools(chain, state, { from: start, to: end.number, onRange }, tip);
    state.tips.record(end, start);
    await saved?.save(state, found);
    added += found.length;
    if (last) break;
    start = end.number + 1n;
  }
  return { from, to: tip.number, added, rolledBack, reorg, ...(resumed ? { resumed } : {}) };
}

async function tipAt(chain: DiscoveryChain, number: bigint): Promise<Tip> {
  return { number, hash: (await hashAt(chain, number)) as Tip["hash"] };
}

async function latestTip({ client }: DiscoveryChain): Promise<Tip> {
  const block = await client.getBlock({ blockTag: "latest" });
  return { number: block.number!, hash: block.hash! };
}

/** The canonical hash at `number`; throws when the node fails or says it has no such block. */
async function hashAt({ client }: DiscoveryChain, number: bigint): Promise<string> {
  return (await client.getBlock({ blockNumber: number })).hash;
}

/** A block the head follower applied, with the logs it read for it (pool, creation and activity events). */
export type HeadBlock = { number: bigint; hash: Hex; parentHash: Hex; logs: readonly Log[] };

/**
 * Advances the index over blocks the head follower read (docs/architecture.md, "The head follower"): when
 * they extend its tip, the discovery events among their logs are taken as a sync would have scanned them,
 * with no read of its own; otherwise (a reorg, a gap, a first sync not done) it syncs to the last of them.
 * It saves when it found pools, and otherwise when `saveDue` says so (a restart rescans the blocks since
 * the last save: only the tips wait; other processes measure their freshness against them).
 */
export async function advanceIndex(
  chain: DiscoveryChain,
  state: IndexState,
  saved: SavedIndex | undefined,
  blocks: readonly HeadBlock[],
  saveDue: () => boolean,
): Promise<SyncResult> {
  const first = blocks[0];
  const last = blocks.at(-1);
  if (!first || !last) throw new RangeError("no blocks to advance over");
  const tip: Tip = { number: last.number, hash: last.hash };
  if (state.tips.last()?.hash !== first.parentHash) return syncIndex(chain, state, saved, tip);
  const found = discoveryLogs(
    chain,
    blocks.flatMap((block) => block.logs),
  );
  const added = await addDiscovered(chain, state, found, tip);
  state.tips.record(tip, first.number);
  if (added.length > 0 || saveDue()) await saved?.save(state, added);
  return { from: first.number, to: last.number, added: added.length, rolledBack: 0, reorg: false };
}
