import { type Config, loadConfig } from "../config/config.ts";
import { createStore } from "../store/create-store.ts";
import { openEmbeddedClient } from "../store/embedded-shared.ts";
import type { Db } from "../store/schema.ts";
import { type ChainAccess, connectChain } from "./chain-access.ts";
import { createOutput, type Output } from "./output.ts";

/** What an operator command works with: the service's database, its chain (asked for lazily), its output. */
export type OperatorContext = {
  config: Config;
  db: Db;
  out: Output;
  /** Connects once, on first use: commands that need no chain never wait for one. */
  chain: () => Promise<ChainAccess>;
};

/**
 * Runs an operator command against the same database as the service (`loadConfig()`): DATABASE_URL, else
 * the embedded PGlite database in the data dir, reached through the running service's socket when the
 * service holds it, opened directly (and released at the end) otherwise.
 */
export async function withOperatorContext(json: boolean, run: (ctx: OperatorContext) => Promise<void>) {
  const config = loadConfig();
  const store = config.databaseUrl
    ? await createStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    : await openEmbeddedClient({ dataDir: config.dataDir });
  let chain: Promise<ChainAccess> | undefined;
  try {
    await run({
      config,
      db: store.db,
      out: createOutput(json),
      chain: () => {
        chain ??= connectChain(config);
        return chain;
      },
    });
  } finally {
    await store.close();
  }
}
