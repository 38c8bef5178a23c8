import { CHECKPOINT_BLOCKS, type DiscoveryChain, discoverPools } from "./discovery.ts";
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
