import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";

const INITDB = join(dirname(fileURLToPath(import.meta.url)), "pglite-initdb.mjs");

/**
 * Postgres's shared buffer pool inside PGlite's WebAssembly memory. The default (128 MB) is sized for a
 * server; the embedded database holds keys, quotas, quote records and indexes of a few megabytes, and the
 * files behind it sit in the kernel's page cache anyway. 32 MB keeps about 100 MiB of resident memory off
 * every embedded start (measured: 303 -> 199 MiB for an open database).
 */
const SHARED_BUFFERS = "32MB";

/**
 * Opens embedded PGlite at `path` (in memory without one). Creating a new data directory (initdb) grows
 * PGlite's WebAssembly memory to about 630 MiB, which a WebAssembly instance never gives back, not even
 * after it is closed; opening an existing one needs about 200 MiB. So a new directory is created by a child
 * process that exits when initdb is done, and then opened like any existing one: the service never holds
 * initdb's memory, not even at its start (the cold-start peak is measured by `npm run soak`; docs/benchmarks.md,
 * "Memory").
 */
export async function openPglite(path: string | undefined): Promise<PGlite> {
  if (path && !existsSync(join(path, "PG_VERSION"))) await createDataDir(path);
  return PGlite.create(path, {
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
  });
}

async function createDataDir(path: string): Promise<void> {
  // Without the parent's flags (a semi-space size, an inspector port): initdb needs none of them.
  await promisify(execFile)(process.execPath, [INITDB, path], { env: process.env, maxBuffer: 1 << 20 });
}
