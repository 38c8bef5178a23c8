#!/usr/bin/env node
// Creates a new embedded PGlite data directory (initdb) and exits. Run as its own process by
// open-pglite.ts: initdb grows PGlite's WebAssembly memory to about 630 MiB, which an instance never gives
// back, and only a process's exit returns it to the system.
import { PGlite } from "@electric-sql/pglite";

const [path] = process.argv.slice(2);
if (!path) {
  console.error("usage: pglite-initdb.mjs <data dir>");
  process.exit(2);
}
const db = await PGlite.create(path);
await db.close();
