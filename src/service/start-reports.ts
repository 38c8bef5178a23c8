import type { ChainConsistency } from "../builders/chain-consistency.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { SyncResult } from "../liquidity/pool-index/pool-index.ts";
import type { Logger } from "./logger.ts";

/** Says at start what the database saw that the chain does not have (a chain behind it, lost activations). */
export function reportConsistency(
  consistency: ChainConsistency,
  progress: (line: string) => void,
  logger: Logger,
) {
  if (consistency.behind) {
    const { chainHead, databaseHead } = consistency;
    progress(
      `WARNING: the chain (block ${chainHead}) is behind the database (block ${databaseHead}): blocks were lost after they were recorded (a devnet killed between saves?); quotes and settlements after block ${chainHead} name blocks this chain does not have`,
    );
    logger.warn(
      { chainHead: String(chainHead), databaseHead: String(databaseHead) },
      "chain behind database",
    );
  }
  if (consistency.withdrawn.length > 0) {
    progress(
      `WARNING: activation withdrawn for ${consistency.withdrawn.join(", ")}: not registered on this chain; they activate again once the registration is on chain`,
    );
    logger.warn({ codes: consistency.withdrawn }, "builder activations withdrawn");
  }
}

/**
 * Says at start what the pool index holds, per kind, and how it got it: scanned from the chain, or read
 * from the index another process (the indexer) saved, which this process did not scan. Warns loudly when
 * it holds nothing.
 */
export function reportIndex(
  pools: IndexedPool[],
  fromBlock: string,
  indexed: Pick<SyncResult, "to" | "readSaved">,
  progress: (line: string) => void,
  logger: Logger,
) {
  const through = indexed.to;
  const kinds = (["v2", "v3", "v4"] as const).map(
    (kind) => `${pools.filter((p) => p.kind === kind).length} ${kind.toUpperCase()}`,
  );
  progress(
    indexed.readSaved
      ? `read ${pools.length} pools (${kinds.join(", ")}) through block ${through} from the index the indexer saved; this process scanned no block (another process indexes)`
      : `indexed ${pools.length} pools (${kinds.join(", ")}) from block ${fromBlock} through ${through}`,
  );
  if (pools.length > 0) return;
  progress(
    "WARNING: the pool index found no pool at all; every quote will answer 422 NO_ROUTE (check the factory and PoolManager addresses and poolsFromBlock in the deployment file)",
  );
  logger.warn(
    { poolsFromBlock: fromBlock, through: through.toString() },
    "the pool index found no pool at all",
  );
}
