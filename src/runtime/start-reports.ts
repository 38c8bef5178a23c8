import type { ChainConsistency } from "../builders/chain-consistency.ts";
import type { Deployment } from "../config/deployment.ts";
import { poolSources } from "../config/pool-sources.ts";
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
 * from the index another process (the indexer) saved, which this process did not scan; which pool sources
 * the deployment leaves out (disabled, docs/rules.md, ours: pool sources). Warns loudly when it holds nothing.
 */
export function reportIndex(
  pools: readonly IndexedPool[],
  deployment: Pick<Deployment, "poolsFromBlock" | "contracts">,
  indexed: Pick<SyncResult, "to" | "readSaved">,
  progress: (line: string) => void,
  logger: Logger,
) {
  const fromBlock = deployment.poolsFromBlock;
  const through = indexed.to;
  const sources = poolSources(deployment.contracts);
  const kinds = (["v2", "v3", "v4"] as const).flatMap((kind, i) =>
    sources[i]!.enabled ? [`${pools.filter((p) => p.kind === kind).length} ${kind.toUpperCase()}`] : [],
  );
  progress(
    indexed.readSaved
      ? `read ${pools.length} pools (${kinds.join(", ")}) through block ${through} from the index the indexer saved; this process scanned no block (another process indexes)`
      : `indexed ${pools.length} pools (${kinds.join(", ")}) from block ${fromBlock} through ${through}`,
  );
  for (const source of sources.filter((s) => !s.enabled)) {
    progress(`${source.id} disabled: ${source.reason}; its pools are neither indexed nor routed through`);
    logger.info({ source: source.id, reason: source.reason }, "pool source disabled");
  }
  if (pools.length > 0) return;
  progress(
    "WARNING: the pool index found no pool at all; every quote will answer 422 NO_ROUTE (check the factory and PoolManager addresses and poolsFromBlock in the deployment file)",
  );
  logger.warn(
    { poolsFromBlock: fromBlock, through: through.toString() },
    "the pool index found no pool at all",
  );
}
