/** Pools as the persistence keeps them: opaque JSON with the block each was learned at. */
export type PersistedPool = { ref: string; discoveredAt: bigint; pool: string };

/**
 * The persisted index (see src/store/repositories/pool-index.ts): the indexer loads it once before its
 * first sync, then saves every sync's changes; other processes load what changed on every refresh. `fingerprint` names the configuration (factories, PoolManager, first block):
 * an index saved under another one is discarded.
 */
export type PoolIndexPersistence = {
  /**
   * The saved index; with `sinceVersion` (the `version` of an earlier load), only the pools saved since,
   * unless a save since took pools back (`full` then says the pools are all of them).
   */
  load: (
    sinceVersion?: bigint,
  ) => Promise<
    { fingerprint: string; tips: string; version: bigint; full: boolean; pools: PersistedPool[] } | undefined
  >;
  save: (change: {
    fingerprint: string;
    tips: string;
    added: PersistedPool[];
    rolledBackAfter?: bigint;
    reset?: boolean;
  }) => Promise<void>;
};
