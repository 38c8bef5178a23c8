import { existsSync } from "node:fs";
import { join } from "node:path";
import { reconcileWithChain } from "../builders/chain-consistency.ts";
import type { Config } from "../config/config.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { openEmbeddedShared } from "../store/embedded-shared.ts";
import { createIndexerRole, type IndexerRole, type IndexProgress } from "./indexer-role.ts";
import type { Logger } from "./logger.ts";
import type { OpenChain } from "./open-chain.ts";
import type { ShutdownStack } from "./shutdown-stack.ts";
import { reportConsistency } from "./start-reports.ts";

/**
 * Start stage, the database: a Postgres server, or the embedded database served on a private socket so
 * the operator CLI can reach it while we run; this process's indexer role among those sharing it; and the
 * workspaces' activations reconciled with the registry on chain.
 */
export async function openDatabase(
  config: Config,
  chain: Pick<OpenChain, "client" | "deployment" | "atStart">,
  deps: {
    progress: (line: string) => void;
    logger: Logger;
    indexProgress: IndexProgress;
    shutdown: ShutdownStack;
  },
): Promise<{ store: Store; role: IndexerRole }> {
  const { progress, logger } = deps;
  progress(
    config.databaseUrl
      ? "connecting to the Postgres server"
      : existsSync(join(config.dataDir, "db", "PG_VERSION"))
        ? "opening the embedded database"
        : "creating the embedded database (first start: a few seconds)",
  );
  const store = config.databaseUrl
    ? await createStore({ databaseUrl: config.databaseUrl, dataDir: null })
    : await openEmbeddedShared({ dataDir: config.dataDir });
  deps.shutdown.defer(() => store.close());
  progress(`database ready (${store.kind === "postgres" ? "Postgres server" : "embedded PGlite"})`);
  // Among processes sharing the database, one indexes the chain; the others read its indexes. Only this
  // process can open the embedded database, so there it holds the role alone, with no lease row.
  const role = createIndexerRole({
    db: store.db,
    ...(store.kind === "postgres" ? {} : { sole: true }),
    // Held only while the index advances against this process's node (a cut node hands it over).
    progress: deps.indexProgress,
    onChange: (isIndexer) =>
      logger.info(
        isIndexer
          ? "this process is the indexer: it follows the chain and writes the indexes"
          : "this process is not the indexer (another holds the lease, or it is stopping): it reads the saved indexes",
      ),
  });
  deps.shutdown.defer(() => role.release());
  const registry = chain.deployment.contracts.builderRegistry;
  const consistency = await chain.atStart(
    () => reconcileWithChain({ client: chain.client, db: store.db, registry }),
    "the start's check of activated builders against the registry",
    "It reads the node's head and the registry with eth_call (multicall): use a node that answers them",
  );
  reportConsistency(consistency, progress, logger);
  return { store, role };
}
