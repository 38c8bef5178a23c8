import { type DiscoveryChain, discoverPools } from "./discovery.ts";
import { type IndexState, rollBack } from "./index-state.ts";
import type { SavedIndex } from "./saved-index.ts";
import type { SyncResult } from "./sync-result.ts";
import type { Tip } from "./tip-history.ts";

/**
 * One sync of the index from the chain, in stages: the saved index restored (the first sync only), the
 * target tip (default: the latest block), a reorg's rollback, the pools discovered since the last tip, the
 * tip recorded, the changes saved.
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
  const added = await discoverPools(chain, state, from, tip);
  state.tips.record(tip, from);
  await saved?.save(state, added);
  return { from, to: tip.number, added: added.length, rolledBack, reorg, ...(resumed ? { resumed } : {}) };
}

async function latestTip({ client }: DiscoveryChain): Promise<Tip> {
  const block = await client.getBlock({ blockTag: "latest" });
  return { number: block.number!, hash: block.hash! };
}

/** The canonical hash at `number`; throws when the node fails or says it has no such block. */
async function hashAt({ client }: DiscoveryChain, number: bigint): Promise<string> {
  return (await client.getBlock({ blockNumber: number })).hash;
}
