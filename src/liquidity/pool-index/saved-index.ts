import { keccak256, toBytes } from "viem";
import type { IndexContracts } from "./discovery.ts";
import { type IndexState, takeSaved } from "./index-state.ts";
import type { PoolIndexPersistence } from "./persistence.ts";
import { type IndexedPool, poolRef, serializePool } from "./pool.ts";
import type { SyncResult } from "./sync-result.ts";

type Loaded = NonNullable<Awaited<ReturnType<PoolIndexPersistence["load"]>>>;

/**
 * The pool index as its persistence keeps it between starts and shares it between processes: the indexer
 * restores it once before its first sync and saves every sync's changes; another process refreshes from
 * it. A saved index is taken only when saved under the same configuration (`indexFingerprint`).
 */
export class SavedIndex {
  /** Set once the saved index was taken (by the first sync, or by a refresh that found one). */
  private restored = false;
  /** Set when the saved index must be rewritten whole (another configuration's, or a save failed). */
  private rewrite = false;
  /** The version of the saved index last loaded: a refresh loads only what later saves wrote. */
  private loadedVersion: bigint | undefined;
  /** The block a rollback kept through, until a save records it (a sync that failed after it did not). */
  private unsavedRollBack: bigint | undefined;

  constructor(
    private readonly persistence: PoolIndexPersistence,
    private readonly fingerprint: string,
    private readonly onPersistError?: (error: unknown) => void,
  ) {}

  /**
   * Before the first sync, once: takes the saved index as the state's, its tips letting the sync's rollback
   * catch a reorg since. Returns the pools and block resumed from, if any.
   */
  async restoreOnce(state: IndexState): Promise<SyncResult["resumed"]> {
    if (this.restored) return undefined;
    this.restored = true;
    const saved = await this.persistence.load();
    if (!saved) return undefined;
    if (saved.fingerprint !== this.fingerprint) {
      this.rewrite = true;
      return undefined;
    }
    this.take(state, saved);
    const last = state.tips.last();
    return last ? { pools: state.pools.size, block: last.number } : undefined;
  }

  /**
   * Takes what the indexer saved since the last load (everything again after a save that took pools back).
   * Undefined when nothing was saved under this configuration.
   */
  async refresh(state: IndexState): Promise<SyncResult | undefined> {
    const saved = await this.persistence.load(this.loadedVersion);
    if (!saved || saved.fingerprint !== this.fingerprint) return undefined;
    this.restored = true;
    const before = new Set(state.pools.refs());
    const from = state.tips.scannedThrough() + 1n;
    this.take(state, saved);
    const rolledBack = [...before].filter((ref) => !state.pools.has(ref)).length;
    return {
      from,
      to: state.tips.scannedThrough(),
      added: state.pools.refs().filter((ref) => !before.has(ref)).length,
      rolledBack,
      reorg: rolledBack > 0,
      readSaved: true,
    };
  }

  /** A rollback kept the index through `block`: the next save takes back what the saved index holds after it. */
  rolledBackTo(block: bigint): void {
    this.unsavedRollBack = min(this.unsavedRollBack, block);
  }

  /**
   * Saves a sync's changes: its tips, the pools it `added` (every pool when the saved index must be
   * rewritten) and any rollback since the last save. A save that fails is reported, never thrown: the index
   * keeps serving, and the next save rewrites everything.
   */
  async save(state: IndexState, added: readonly IndexedPool[]): Promise<void> {
    const all = this.rewrite;
    const keepThrough = this.unsavedRollBack;
    this.unsavedRollBack = undefined;
    try {
      await this.persistence.save({
        fingerprint: this.fingerprint,
        tips: state.tips.toJson(),
        added: (all ? state.pools.all() : added).map((pool) => ({
          ref: poolRef(pool),
          discoveredAt: pool.discovery.block,
          pool: serializePool(pool),
        })),
        ...(keepThrough !== undefined ? { rolledBackAfter: keepThrough } : {}),
        ...(all ? { reset: true } : {}),
      });
      this.rewrite = false;
    } catch (error) {
      this.rewrite = true;
      this.onPersistError?.(error);
    }
  }

  private take(state: IndexState, saved: Loaded): void {
    takeSaved(state, saved);
    this.loadedVersion = saved.version;
  }
}

/** Names the index's configuration, so a saved index is reused only for the same contracts and first block. */
export function indexFingerprint(contracts: IndexContracts, fromBlock: bigint): string {
  const fields = [
    "pool-index-v1",
    contracts.v2Factory ?? "",
    contracts.v2PairInitCodeHash ?? "",
    contracts.v3Factory ?? "",
    contracts.v3PoolInitCodeHash ?? "",
    contracts.v4PoolManager ?? "",
    fromBlock.toString(),
  ];
  return keccak256(toBytes(fields.join(":").toLowerCase()));
}

const min = (a: bigint | undefined, b: bigint) => (a === undefined || b < a ? b : a);
