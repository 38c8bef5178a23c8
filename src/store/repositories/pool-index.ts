/**
 * Repository of the persisted pool index (migration 0008). Pools are opaque JSON here (the liquidity layer
 * owns their shape); `discoveredAt` is the block each was learned at, so a reorg can take pools back.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

const STATE_ID = "pools";

export type PersistedPoolIndex = {
  fingerprint: string;
  /** JSON of the recent tips. */
  tips: string;
  /** The save this state is from: pass it back to load only what later saves changed. */
  version: bigint;
  /** True when `pools` is the whole index; false when it holds only the pools saved after `sinceVersion`. */
  full: boolean;
  pools: { ref: string; discoveredAt: bigint; pool: string }[];
};

/**
 * The saved index, or undefined when none was saved yet. With `sinceVersion` (a version an earlier load
 * returned), only the pools later saves wrote, unless a save since took pools back: then all of them.
 */
export async function loadPoolIndex(db: Db, sinceVersion?: bigint): Promise<PersistedPoolIndex | undefined> {
  return db.transaction().execute(async (tx) => {
    const state = await tx
      .selectFrom("pool_index_state")
      .select(["fingerprint", "tips", "version", "reset_version"])
      .where("id", "=", STATE_ID)
      .executeTakeFirst();
    if (!state) return undefined;
    const version = BigInt(state.version);
    const full = sinceVersion === undefined || BigInt(state.reset_version) > sinceVersion;
    const rows =
      !full && version === sinceVersion
        ? []
        : await tx
            .selectFrom("pool_index_pools")
            .select(["ref", "discovered_at", "pool"])
            .$if(!full, (query) => query.where("version", ">", sinceVersion!.toString()))
            .execute();
    return {
      fingerprint: state.fingerprint,
      tips: state.tips,
      version,
      full,
      pools: rows.map((row) => ({ ref: row.ref, discoveredAt: BigInt(row.discovered_at), pool: row.pool })),
    };
  });
}

/**
 * Records one sync in one transaction: forgets pools learned after `rolledBackAfter` (a reorg), adds the
 * pools learned, and replaces the tips. `reset` first forgets everything (another configuration's index).
 * Every save bumps the state's version and stamps the rows it writes with it; a save that takes pools back
 * also moves `reset_version`, so readers know to reload whole. Only the indexer (the holder of the indexer
 * lease) saves; should two ever overlap (a lease expiring mid-save), saves are serialized by a
 * transaction-scoped advisory lock, and a save from a process behind the saved tip (with no reorg to
 * record) changes nothing: the process ahead has scanned those blocks and saved their pools already.
 * Returns whether it wrote.
 */
export async function savePoolIndexSync(
  db: Db,
  change: {
    fingerprint: string;
    tips: string;
    added: { ref: string; discoveredAt: bigint; pool: string }[];
    rolledBackAfter?: bigint;
    reset?: boolean;
  },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${POOL_INDEX_LOCK.toString()}::bigint)`.execute(tx);
    const current = await tx
      .selectFrom("pool_index_state")
      .select(["fingerprint", "tips", "version", "reset_version"])
      .where("id", "=", STATE_ID)
      .executeTakeFirst();
    const takesBack = change.reset === true || change.rolledBackAfter !== undefined;
    if (
      !takesBack &&
      current?.fingerprint === change.fingerprint &&
      lastTip(current.tips) > lastTip(change.tips)
    )
      return false;
    const version = BigInt(current?.version ?? 0) + 1n;
    const resetVersion = takesBack ? version : BigInt(current?.reset_version ?? 0);
    if (change.reset) await tx.deleteFrom("pool_index_pools").execute();
    else if (change.rolledBackAfter !== undefined)
      await tx
        .deleteFrom("pool_index_pools")
        .where("discovered_at", ">", change.rolledBackAfter.toString())
        .execute();
    // Inserted in slices: a first sync on a long chain can learn thousands of pools.
    for (let i = 0; i < change.added.length; i += 500) {
      await tx
        .insertInto("pool_index_pools")
        .values(
          change.added
            .slice(i, i + 500)
            .map((pool) => ({ ref: pool.ref, discovered_at: pool.discoveredAt, pool: pool.pool, version })),
        )
        .onConflict((oc) =>
          oc.column("ref").doUpdateSet((eb) => ({
            discovered_at: eb.ref("excluded.discovered_at"),
            pool: eb.ref("excluded.pool"),
            version: eb.ref("excluded.version"),
          })),
        )
        .execute();
    }
    const state = {
      fingerprint: change.fingerprint,
      tips: change.tips,
      updated_at: new Date(),
      version: version.toString(),
      reset_version: resetVersion.toString(),
    };
    await tx
      .insertInto("pool_index_state")
      .values({ id: STATE_ID, ...state })
      .onConflict((oc) => oc.column("id").doUpdateSet(state))
      .execute();
    return true;
  });
}

/** The advisory lock key serializing pool index saves (any fixed 64-bit number; "JPOOLIDX" in ASCII). */
const POOL_INDEX_LOCK = 0x4a504f4f4c494458n;

/** The newest tip's block number in a tips JSON (-1 for none). */
function lastTip(tips: string): bigint {
  const list = JSON.parse(tips) as { number: string }[];
  return list.length === 0 ? -1n : BigInt(list.at(-1)!.number);
}
