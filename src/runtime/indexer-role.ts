import { randomUUID } from "node:crypto";
import { claimLease, releaseLease } from "../store/repositories/indexer-leases.ts";
import type { Db } from "../store/schema.ts";

/** The lease every process sharing a database competes for. */
const LEASE = "chain-indexer";
/** How long a claim holds without renewal: a process that dies hands over within this. */
export const INDEXER_LEASE_TTL_MS = 10_000;

export type IndexerRole = {
  /**
   * Claims or renews the lease now, if this process is fit to index (see `createIndexerRole`); whether this
   * process is the indexer. A database error answers false.
   */
  claim: () => Promise<boolean>;
  /** The last claim's answer (false before the first). */
  isIndexer: () => boolean;
  /** Stops renewing and gives the lease up, so another process takes over at once. */
  release: () => Promise<void>;
};

/** What the role asks of the index before holding the lease: when it last got anywhere (ms since the epoch). */
export type IndexProgress = {
  /** When the index last reached the node's head, or a scan toward it advanced. */
  progressedAt: () => number | undefined;
  /** When this process's node last answered a head reading. */
  nodeAnsweredAt: () => number | undefined;
};

/**
 * One indexer among the processes sharing a database (workers, machines behind a load balancer): the
 * holder of the `chain-indexer` lease follows the chain and writes the pool, settlement and activation
 * indexes; every other process reads them (docs/rules.md, ours: one indexer). The holder renews every third
 * of the lease's life in the background, so a long first scan does not lose it, but only while it advances:
 * a holder whose index has not progressed for a lease's life (its node is cut or failing) gives the lease
 * up, and claims again no sooner than half a lease's life later, so a process whose node answers takes over.
 * A process claims only while its node answered within a lease's life. A process that stops or dies hands
 * over within `ttlMs`. `holder` defaults to a random id per process. The embedded database passes `sole`:
 * only one process can open it (its lock file), so there is no one to hand over to and the lease is held
 * without a database row (no write every few seconds); the role still steps aside while its index does
 * not advance.
 */
export function createIndexerRole(options: {
  db: Db;
  holder?: string;
  /** This process is the only one that can open the database: the lease needs no row in it. */
  sole?: boolean;
  ttlMs?: number;
  /** Without it the role holds regardless of progress (tests of the lease alone). */
  progress?: IndexProgress;
  onChange?: (isIndexer: boolean) => void;
  now?: () => number;
}): IndexerRole {
  const holder = options.holder ?? randomUUID();
  const ttlMs = options.ttlMs ?? INDEXER_LEASE_TTL_MS;
  const now = options.now ?? Date.now;
  let held = false;
  let heldSince = 0;
  let gaveUpAt: number | undefined;
  let released = false;
  const set = (isIndexer: boolean) => {
    if (isIndexer === held) return;
    held = isIndexer;
    if (held) heldSince = now();
    options.onChange?.(isIndexer);
  };
  const within = (at: number | undefined) => at !== undefined && now() - at < ttlMs;
  /** A holder keeps the lease while it advances (a new holder has one lease's life to start). */
  const advancing = () => within(Math.max(heldSince, options.progress?.progressedAt() ?? 0));
  /**
   * A process may claim while its node answers, and not for half a lease's life after it gave up: every
   * other process tries every third of it, so one whose node answers takes the lease first.
   */
  const mayClaim = () =>
    within(options.progress?.nodeAnsweredAt()) && !(gaveUpAt !== undefined && now() - gaveUpAt < ttlMs / 2);
  const giveUp = async () => {
    gaveUpAt = now();
    set(false);
    if (!options.sole) await releaseLease(options.db, LEASE, holder).catch(() => undefined);
  };
  const claim = async () => {
    if (released) return false;
    if (options.progress && (held ? !advancing() : !mayClaim())) {
      if (held) await giveUp();
      return false;
    }
    set(options.sole ? true : await claimLease(options.db, LEASE, holder, ttlMs).catch(() => false));
    return held;
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
      set(false);
      if (!options.sole) await releaseLease(options.db, LEASE, holder).catch(() => undefined);
    },
  };
}
