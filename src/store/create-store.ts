import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Kysely, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import { acquireEmbeddedLock, type EmbeddedLock } from "./embedded-lock.ts";
import { migrationProvider } from "./migrations.ts";
import { openPglite } from "./open-pglite.ts";
import { pglitePool } from "./pglite-pool.ts";
import type { Database, Db } from "./schema.ts";

export type Store = {
  db: Db;
  /** `embedded` is PGlite under the data dir; `postgres` a server at DATABASE_URL. */
  kind: "embedded" | "postgres";
  close: () => Promise<void>;
};

/** How long a request waits for a connection to the Postgres server (new, or free in the pool). */
const CONNECT_TIMEOUT_MS = 5_000;

export class StoreMigrationError extends Error {
  override name = "StoreMigrationError";
}

/**
 * Opens the database and brings its schema up to date: a Postgres server when `databaseUrl` is set,
 * otherwise embedded PGlite in `<dataDir>/db` (or in memory for `dataDir: null`, for tests). One SQL
 * dialect either way. PGlite is single-process: opening `<dataDir>/db` takes `<dataDir>/db.lock` until
 * `close` and throws EmbeddedLockError while another live process holds it (a running service shares its
 * database through `openEmbeddedShared` instead).
 */
export async function createStore(options: { databaseUrl?: string; dataDir: string | null }): Promise<Store> {
  let kind: Store["kind"];
  let dialect: PostgresDialect;
  let lock: EmbeddedLock | undefined;
  if (options.databaseUrl) {
    kind = "postgres";
    // A server that stops answering fails a request within CONNECT_TIMEOUT_MS instead of holding it.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A connection the server drops (a restart, the embedded socket closing) emits `error` on its client.
    // The pool listens only while the client is idle; a client checked out for a query would otherwise
    // make node exit on an uncaught error. The query itself still fails (a 503, src/store/database-failure.ts)
    // and the pool discards the broken client.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    dialect = new PostgresDialect({ pool });
  } else {
    kind = "embedded";
    let path: string | undefined;
    if (options.dataDir) {
      lock = acquireEmbeddedLock(options.dataDir, "direct");
      path = join(options.dataDir, "db");
      mkdirSync(path, { recursive: true });
    }
    const pglite = await openPglite(path).catch((error: unknown) => {
      lock?.release();
      throw error;
    });
    dialect = new PostgresDialect({ pool: pglitePool(pglite) as never });
  }
  const db = new Kysely<Database>({ dialect });
  const close = async () => {
    await db.destroy();
    lock?.release();
  };
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await close();
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new StoreMigrationError(`database migration ${failed} failed: ${(error as Error).message}`);
  }
  return { db, kind, close };
}
