import { randomUUID } from "node:crypto";
import { claimLease, releaseLease } from "../store/repositories/indexer-leases.ts";
import type { Db } from "../store/schema.ts";

/** The lease every process sharing a database competes for. */
const LEASE = "chain-indexer";
/** How long a claim holds without renewal: a process that dies hands over within this. */
export const INDEXER_LEASE_TTL_MS = 10_000;

export type IndexerRole = {
  /** Claims or renews the lease now; whether this process is the indexer. A database error answers false. */
  claim: () => Promise<boolean>;
  /** The last claim's answer (false before the first). */
  isIndexer: () => boolean;
  /** Stops renewing and gives the lease up, so another process takes over at once. */
  release: () => Promise<void>;
};

/**
 * One indexer among the processes sharing a database (workers, machines behind a load balancer): the
 * holder of the `chain-indexer` lease follows the chain and writes the pool, settlement and activation
 * indexes; every other process reads them (docs/rules.md, ours: one indexer). The holder renews every third
 * of the lease's life in the background, so a long first scan does not lose it; a process that stops or
 * dies hands over within `INDEXER_LEASE_TTL_MS`. `holder` defaults to a random id per process; the embedded
 * database passes a fixed one (only one process can open it), so a restart after a crash reclaims at once.
 */
export function createIndexerRole(options: {
  db: Db;
  holder?: string;
  ttlMs?: number;
  onChange?: (isIndexer: boolean) => void;
}): IndexerRole {
  const holder = options.holder ?? randomUUID();
  const ttlMs = options.ttlMs ?? INDEXER_LEASE_TTL_MS;
  let held = false;
  let released = false;
  const claim = async () => {
    if (released) return false;
    const now = await claimLease(options.db, LEASE, holder, ttlMs).catch(() => false);
    if (now !== held) {
      held = now;
      options.onChange?.(now);
    }
    return now;
  };
  const renewal = setInterval(() => void claim(), Math.floor(ttlMs / 3));
  renewal.unref();
  return {
    claim,
    isIndexer: () => held,
    release: async () => {
      released = true;
      clearInterval(renewal);
      if (!held) return;
      held = false;
      await releaseLease(options.db, LEASE, holder).catch(() => undefined);
      options.onChange?.(false);
    },
  };
}
