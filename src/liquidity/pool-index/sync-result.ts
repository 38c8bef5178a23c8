/** What one sync or refresh of the pool index did. */
export type SyncResult = {
  from: bigint;
  to: bigint;
  added: number;
  rolledBack: number;
  reorg: boolean;
  /** On the first sync with persistence: the pools and the block the saved index resumed from. */
  resumed?: { pools: number; block: bigint };
  /** A refresh that took the indexer's saved index (not the chain). */
  readSaved?: true;
};
