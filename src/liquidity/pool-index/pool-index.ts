import type { Address, Hex, PublicClient } from "viem";
import type { LogRangePolicy } from "../../chain/log-scanner.ts";
import { oneAtATime } from "../../chain/one-at-a-time.ts";
import { discoveryChain, type IndexContracts, type ScanProgress } from "./discovery.ts";
import { createIndexState } from "./index-state.ts";
import type { PoolIndexPersistence } from "./persistence.ts";
import type { IndexedPool } from "./pool.ts";
import { indexFingerprint, SavedIndex } from "./saved-index.ts";
import { advanceIndex, type HeadBlock, syncIndex } from "./sync-index.ts";
import type { SyncResult } from "./sync-result.ts";

export type { IndexContracts, ScanProgress } from "./discovery.ts";
export { DISCOVERY_EVENTS } from "./discovery.ts";
export type { HeadBlock } from "./sync-index.ts";
export type { SyncResult } from "./sync-result.ts";

export type PoolIndexOptions = {
  client: Pick<PublicClient, "getLogs" | "getBlock" | "readContract" | "multicall">;
  contracts: IndexContracts;
  /** First block scanned; pools initialized earlier are still found through their V4 activity. */
  fromBlock: bigint;
  /** How `eth_getLogs` ranges are sized (default: adaptive, see log-scanner.ts). */
  logRanges?: LogRangePolicy;
  /** Where the index keeps what it learned between starts (the service: its database); none in tests. */
  persistence?: PoolIndexPersistence;
  /** A save that failed (the index keeps serving; the next save rewrites everything). */
  onPersistError?: (error: unknown) => void;
  /** Each range of logs a sync read: a long scan is progressing, not stuck (and how far it got). */
  onScanned?: (scan: ScanProgress) => void;
  /** Blocks a long sync scans between saves (default 50,000: see `CHECKPOINT_BLOCKS`). */
  checkpointBlocks?: bigint;
  /** While `advance` finds no pool, how often it saves the tips it reached (default `TIPS_SAVE_MS`). */
  tipsSaveMs?: number;
  now?: () => number;
};

/**
 * How often an index advanced by the head follower saves its tips when no pool was found: a third of the
 * 30 s after which another process reading the saved index counts it stale (src/runtime/index-freshness.ts).
 */
export const TIPS_SAVE_MS = 10_000;

export type PoolIndex = {
  /** Brings the index up to `block` (default: latest), undoing whatever a reorg took back. */
  sync: (block?: { number: bigint; hash: Hex }) => Promise<SyncResult>;
  /**
   * Brings the index over blocks the head follower read, from the creation events among their logs, with
   * no `eth_getLogs` of its own; a sync to the last of them when they do not extend the index's tip.
   */
  advance: (blocks: readonly HeadBlock[]) => Promise<SyncResult>;
  /** Saves the tips `advance` left unsaved, once its save interval has passed (nothing otherwise). */
  flush: () => Promise<void>;
  /**
   * Takes the index the indexer saved (another process holding the indexer lease) instead of reading the
   * chain: only what changed since the last refresh, everything again after a save that took pools back.
   * Undefined (nothing changed) until an index is saved under this configuration.
   */
  refresh: () => Promise<SyncResult | undefined>;
  syncedTo: () => { number: bigint; hash: Hex } | undefined;
  /** Every indexed pool: the same array until the index changes (readers may key caches on it). */
  pools: () => readonly IndexedPool[];
  /** Pools holding exactly these two tokens (address(0) is native ETH, distinct from WETH). */
  poolsForPair: (tokenA: Address, tokenB: Address) => IndexedPool[];
  /** Pools holding this token: the same array until one of them changes (readers may key caches on it). */
  poolsOf: (token: Address) => readonly IndexedPool[];
  /** How many pools hold this token (without listing them). */
  poolCountOf: (token: Address) => number;
};

/**
 * The index of verified direct pools (docs/rules.md, comparison rule 1): V2 pairs and V3 pools from the
 * canonical factories' creation events, each checked against its CREATE2 address, and V4 pools from the
 * PoolManager's `Initialize` events, each checked against its key hash, with hooked and dynamic-fee pools
 * kept but excluded. V4 pools seen only through activity (initialized before `fromBlock`) get their key
 * from the PositionManager, or from one exact-id `Initialize` lookup when that key is missing or
 * mismatched (docs/rules.md, comparison rule 10). It follows the chain tip and rolls back what a reorg
 * removes. Addresses are lowercase throughout. A source the deployment leaves out is neither scanned nor
 * resolved (docs/rules.md, ours: pool sources).
 *
 * What it holds is one `IndexState` (index-state.ts); a sync runs the stages of sync-index.ts (restore,
 * rollback, discovery.ts, record the tip, save), a refresh takes the saved index (saved-index.ts).
 */
export function createPoolIndex(options: PoolIndexOptions): PoolIndex {
  const { persistence } = options;
  const chain = discoveryChain(options);
  const state = createIndexState(options.fromBlock);
  const saved =
    persistence &&
    new SavedIndex(
      persistence,
      indexFingerprint(options.contracts, options.fromBlock),
      options.onPersistError,
    );
  // One sync or refresh at a time: concurrent callers queue behind the running one.
  const queue = oneAtATime();
  const now = options.now ?? Date.now;
  const tipsSaveMs = options.tipsSaveMs ?? TIPS_SAVE_MS;
  let savedAt = Number.NEGATIVE_INFINITY;
  /** The tips reached since the last save, when `advance` did not save them. */
  let unsaved = false;
  const saveDue = () => {
    if (now() - savedAt < tipsSaveMs) {
      unsaved = true;
      return false;
    }
    savedAt = now();
    unsaved = false;
    return true;
  };
  return {
    sync: (target) =>
      queue(() => {
        savedAt = now();
        unsaved = false;
        return syncIndex(chain, state, saved, target);
      }),
    advance: (blocks) => queue(() => advanceIndex(chain, state, saved, blocks, saveDue)),
    flush: () =>
      queue(async () => {
        if (saved && unsaved && saveDue()) await saved.save(state, []);
      }),
    refresh: () => {
      if (!saved) throw new Error("refresh needs the index's persistence");
      return queue(() => saved.refresh(state));
    },
    syncedTo: () => state.tips.last(),
    pools: () => state.pools.all(),
    poolsForPair: (a, b) => state.pools.forPair(a, b),
    poolsOf: (token) => state.pools.of(token),
    poolCountOf: (token) => state.pools.count(token),
  };
}
