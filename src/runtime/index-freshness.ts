import type { Readiness } from "../api/lifecycle.ts";
/** An index that has not covered the head this process sees for this long makes the process not ready. */
export const INDEX_STALE_MS = 30_000;
/** Head readings kept while the index is behind them; past this, newer ones wait for it to catch up. */
const MAX_PENDING_HEADS = 1_024;

export type IndexFreshness = {
  /**
   * The node answered: its head was `head` at `at` (ms since the epoch), the index then reaching `indexed`
   * (a sync, or a refresh from the indexer's save, finished just before).
   */
  observe: (head: bigint, indexed: bigint | undefined, at: number) => void;
  /** A scan made progress toward the head (a range of logs read): the indexer is not stuck. */
  progressed: (at: number) => void;
  /** Ms since the index last covered the head this process saw; undefined before it ever did. */
  age: (now: number) => number | undefined;
  /** Blocks between the newest head this process saw and the index; undefined before both are known. */
  lagBlocks: () => bigint | undefined;
  /** When the node last answered a head reading. */
  nodeAnsweredAt: () => number | undefined;
  /** When the index last advanced: it covered a head, or a scan toward it progressed. */
  progressedAt: () => number | undefined;
};

/**
 * How far the pool index is behind the chain, measured against the head this process itself reads from its
 * node, not against the indexer's last save (docs/rules.md, ours: index freshness). The index "covered the
 * head" at the last moment a head reading was at or below the block it had reached since: readings above
 * the index are kept until it passes them, so a reader whose index trails the chain by a few blocks between
 * saves still measures seconds, while one whose indexer stopped measures from the block it stopped at. A
 * node that stops answering stops the readings, so the age grows too.
 */
export function createIndexFreshness(): IndexFreshness {
  let coveredAt: number | undefined;
  let newestHead: bigint | undefined;
  let indexedThrough: bigint | undefined;
  let answeredAt: number | undefined;
  let scannedAt: number | undefined;
  /** Head readings above the index, ascending by block: each with the last time it was read. */
  const pending: { head: bigint; at: number }[] = [];

  const cover = (indexed: bigint) => {
    while (pending.length > 0 && pending[0]!.head <= indexed) {
      coveredAt = Math.max(coveredAt ?? 0, pending.shift()!.at);
    }
  };
  const remember = (head: bigint, at: number) => {
    const same = pending.find((reading) => reading.head === head);
    if (same) same.at = Math.max(same.at, at);
    else if (pending.length < MAX_PENDING_HEADS) {
      pending.push({ head, at });
      pending.sort((a, b) => (a.head < b.head ? -1 : a.head > b.head ? 1 : 0));
    }
  };
  return {
    observe: (head, indexed, at) => {
      answeredAt = Math.max(answeredAt ?? 0, at);
      newestHead = head;
      if (indexed !== undefined) indexedThrough = indexed;
      remember(head, at);
      if (indexedThrough !== undefined) cover(indexedThrough);
    },
    progressed: (at) => {
      scannedAt = Math.max(scannedAt ?? 0, at);
    },
    age: (now) => (coveredAt === undefined ? undefined : Math.max(0, now - coveredAt)),
    lagBlocks: () =>
      newestHead === undefined || indexedThrough === undefined
        ? undefined
        : newestHead > indexedThrough
          ? newestHead - indexedThrough
          : 0n,
    nodeAnsweredAt: () => answeredAt,
    progressedAt: () =>
      coveredAt === undefined || scannedAt === undefined
        ? (coveredAt ?? scannedAt)
        : Math.max(coveredAt, scannedAt),
  };
}

/**
 * Whether the index is too far behind the head this process sees to serve quotes (it follows every block):
 * readiness answers `index-stale` then (docs/rules.md, ours: index freshness).
 */
export function isIndexStale(freshness: IndexFreshness, now: number, staleMs = INDEX_STALE_MS): boolean {
  const age = freshness.age(now);
  return age === undefined || age > staleMs;
}

/** The index's part of readiness: `index-stale` while {@link isIndexStale}. */
export function indexReadiness(freshness: IndexFreshness, now: number): Readiness {
  return isIndexStale(freshness, now) ? { ready: false, reason: "index-stale" } : { ready: true };
}
