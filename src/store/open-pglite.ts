import { existsSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * Opens embedded PGlite at `path` (in memory without one). Creating a new data directory (initdb) grows
 * PGlite's WebAssembly memory to about 630 MiB, which a WebAssembly instance never gives back; opening an
 * existing one needs about 200 MiB. So a new directory is created by a throwaway instance, closed, and then
 * opened like any existing one: the first start costs one more open (about a second) and the service does
 * not carry initdb's memory for the rest of its life (measured with `npm run soak`; see the README).
 */
export async function openPglite(path: string | undefined): Promise<PGlite> {
  if (path && !existsSync(join(path, "PG_VERSION"))) await (await PGlite.create(path)).close();
  return PGlite.create(path);
}
