import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { createStore, type Store } from "./create-store.ts";
import {
  type EmbeddedLock,
  EmbeddedLockError,
  heldError,
  readEmbeddedLock,
  tryAcquireEmbeddedLock,
} from "./embedded-lock.ts";
import { openPglite } from "./open-pglite.ts";
import { sessionGate } from "./session-gate.ts";

/** node-postgres reaches a Unix socket as `<host dir>/.s.PGSQL.<port>`. */
const SOCKET_FILE = ".s.PGSQL.5432";
/** Unix socket paths are capped near 104-108 bytes; a longer data dir gets a private temp dir instead. */
const MAX_SOCKET_PATH = 100;
/** The service's own pool (10) plus operator CLIs, with room to spare. */
const MAX_CONNECTIONS = 64;
/** How long an opener waits for a short-lived holder (a CLI command) to finish. */
const DEFAULT_WAIT_MS = 15_000;
const POLL_MS = 150;

export type SharedEmbeddedStore = Store & {
  /** Where other processes reach this database while it is open (also written in `<dataDir>/db.lock`). */
  url: string;
};

/**
 * Opens the embedded database for the service and shares it: PGlite is single-process, so the service
 * holds `<dataDir>/db.lock` and serves the database on a private socket (a Unix socket in the data dir,
 * mode 0600) whose URL it writes into the lock. The operator CLI then connects there instead of opening
 * the files. The service's own queries go through the same socket, so one queue orders every session
 * (see session-gate.ts). Waits up to `waitMs` for a CLI command that holds the database; refuses if
 * another service holds it.
 */
export async function openEmbeddedShared(options: {
  dataDir: string;
  waitMs?: number;
}): Promise<SharedEmbeddedStore> {
  const { dataDir } = options;
  const lock = await waitForLock(dataDir, options.waitMs ?? DEFAULT_WAIT_MS);
  const cleanups: (() => Promise<void> | void)[] = [() => lock.release()];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };
  try {
    const path = join(dataDir, "db");
    mkdirSync(path, { recursive: true });
    const pglite = await openPglite(path);
    cleanups.push(() => pglite.close());
    const target = socketTarget(dataDir);
    cleanups.push(target.remove);
    const server = new PGLiteSocketServer({
      db: sessionGate(pglite),
      ...target.listen,
      maxConnections: MAX_CONNECTIONS,
    });
    await server.start();
    cleanups.push(() => server.stop());
    if (target.listen.path) chmodSync(target.listen.path, 0o600);
    const url = target.url(server);
    const store = await createStore({ databaseUrl: url, dataDir: null });
    cleanups.push(store.close);
    lock.publish(url);
    let closing: Promise<void> | undefined;
    return {
      db: store.db,
      kind: "embedded",
      url,
      close: () => {
        closing ??= cleanup();
        return closing;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Opens the embedded database for an operator command: through the running service's socket when a live
 * service holds the lock, otherwise directly (holding the lock until `close`). Waits up to `waitMs` for
 * another direct holder to finish.
 */
export async function openEmbeddedClient(options: {
  dataDir: string;
  waitMs?: number;
}): Promise<Store & { via: "service" | "direct" }> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const holder = readEmbeddedLock(options.dataDir);
    if (!holder) {
      try {
        return { ...(await createStore({ dataDir: options.dataDir })), via: "direct" };
      } catch (error) {
        if (!(error instanceof EmbeddedLockError)) throw error;
        continue; // someone took it first: look again
      }
    }
    if (holder.url) {
      const failure = await probe(holder.url);
      if (!failure) {
        const store = await createStore({ databaseUrl: holder.url, dataDir: null });
        return { ...store, kind: "embedded", via: "service" };
      }
      if (Date.now() >= deadline) {
        throw new EmbeddedLockError(
          `the junction service (pid ${holder.pid}) holds the embedded database in ${options.dataDir} but does not answer at ${holder.url} (${failure}); stop it or set DATABASE_URL`,
          holder,
        );
      }
    } else if (Date.now() >= deadline) {
      throw heldError(options.dataDir, holder);
    }
    await sleep(POLL_MS);
  }
}

/** Connects once to the holder's socket; returns why it failed, or undefined when it answers. */
async function probe(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  } finally {
    // Ending a client that never connected can only fail the same way; the answer above is what counts.
    await client.end().catch(() => {});
  }
}

async function waitForLock(dataDir: string, waitMs: number): Promise<EmbeddedLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = tryAcquireEmbeddedLock(dataDir, "service");
    if ("lock" in result) return result.lock;
    if (result.holder.role === "service" || Date.now() >= deadline) throw heldError(dataDir, result.holder);
    await sleep(POLL_MS);
  }
}

type SocketTarget = {
  listen: { path?: string; host?: string; port?: number };
  url: (server: PGLiteSocketServer) => string;
  remove: () => void;
};

/** A Unix socket only this user can open; loopback TCP where Unix sockets are not files (Windows). */
function socketTarget(dataDir: string): SocketTarget {
  if (process.platform === "win32") {
    return {
      listen: { host: "127.0.0.1", port: 0 },
      url: (server) => `postgresql://postgres@${server.getServerConn()}/postgres`,
      remove: () => {},
    };
  }
  let dir = dataDir;
  let temporary = false;
  if (join(dir, SOCKET_FILE).length > MAX_SOCKET_PATH) {
    dir = mkdtempSync(join(tmpdir(), "junction-db-"));
    temporary = true;
  }
  const path = join(dir, SOCKET_FILE);
  // A socket file left by a crashed holder blocks listen; we hold the lock, so it is not in use.
  rmSync(path, { force: true });
  return {
    listen: { path },
    url: () => `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`,
    remove: () => rmSync(temporary ? dir : path, { recursive: true, force: true }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
