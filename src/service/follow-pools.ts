import type { PublicClient } from "viem";
import type { Contracts } from "../config/deployment.ts";
import { createFollowedState, type FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import { followChain } from "../liquidity/pool-index/follow.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { IndexFreshness } from "./index-freshness.ts";
import type { Logger } from "./logger.ts";

/** How often the followed pool state reads the node's head (docs/rules.md, comparison rule 14). */
export const POOL_STATE_FOLLOW_MS = 1_000;

/**
 * The index follower (`followChain`, reporting to `freshness`) and, beside it, pool state that follows the chain (docs/rules.md, comparison rule 14):
 * stepped every `POOL_STATE_FOLLOW_MS`, fresh for quoting for three intervals after it last saw the head.
 * A sampled pool that differs from a direct read is logged and counted (`onMismatch`); a failed step is
 * logged and retried. One `stop` stops both.
 */
export function followChainAndPools(deps: {
  index: PoolIndex;
  client: PublicClient;
  deployment: { contracts: Contracts };
  logger: Logger;
  metrics: { followedMismatch: (kind: string) => void };
  /** The index follower's interval, freshness record, role and head reader. */
  intervalMs: number;
  freshness: IndexFreshness;
  isIndexer: () => Promise<boolean>;
  readHead: () => Promise<bigint>;
}): { stop: () => Promise<void>; followed: FollowedSource } {
  const { index, deployment, logger, freshness } = deps;
  const indexFollower = followChain(index, {
    intervalMs: deps.intervalMs,
    onSynced: (step) => step && freshness.observe(step.head, index.syncedTo()?.number, step.at),
    isIndexer: deps.isIndexer,
    readHead: deps.readHead,
    onError: (error) => logger.warn({ err: error }, "pool index sync failed; retrying"),
  });
  const followed = createFollowedState({
    client: deps.client,
    pools: () => index.pools(),
    ...(deployment.contracts.v4PoolManager ? { poolManager: deployment.contracts.v4PoolManager } : {}),
    // Fee terms read at one block serve every block until the registry logs again (block-reads.ts).
    watch: [deployment.contracts.builderRegistry],
    staleAfterMs: POOL_STATE_FOLLOW_MS * 3,
    onMismatch: (pool, field) => {
      deps.logger.warn(
        { pool: pool.kind === "v4" ? pool.poolId : pool.address, field },
        "followed pool state differed from a direct read; reading it directly",
      );
      deps.metrics.followedMismatch(pool.kind);
    },
  });
  const stepper = followed.start(POOL_STATE_FOLLOW_MS, (error) =>
    deps.logger.warn(
      { err: error },
      "following pool state failed; quotes read pools directly until it catches up",
    ),
  );
  return {
    followed,
    stop: async () => {
      await stepper.stop();
      await indexFollower.stop();
    },
  };
}
