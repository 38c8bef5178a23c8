import type { PublicClient } from "viem";
import { ATTRIBUTED, SETTLED } from "../builders/settlement-logs.ts";
import { subscribeNewHeads } from "../chain/new-heads.ts";
import type { Contracts } from "../config/deployment.ts";
import { REGISTRY_EVENTS } from "../contracts/registry-events.ts";
import type { FollowMode, FollowModeChange } from "../liquidity/followed-state/follow-heads.ts";
import { createFollowedState, type FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import { DISCOVERY_EVENTS, type PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { adoptionProgress } from "./adoption-progress.ts";
import { type HeadTaskDeps, headTasks } from "./head-tasks.ts";
import type { IndexFreshness } from "./index-freshness.ts";
import { type Logger, repeatingWarning } from "./logger.ts";

/**
 * How often the followed pool state reads the node's head when no subscription announces heads and the
 * chain's pace is not known (polls are otherwise timed to its blocks, at most twice this apart: follow-heads.ts)
 * (docs/rules.md, comparison rule 14): its state serves quotes for three intervals after it last saw the head.
 */
export const POOL_STATE_FOLLOW_MS = 1_000;
const POOL_STATE_STALE_MS = POOL_STATE_FOLLOW_MS * 3;
/**
 * While a `newHeads` subscription announces heads, the head is still read after this much quiet: short
 * enough that on a chain between blocks the state never goes stale (half a second leaves the read time to
 * answer), and that a subscription gone silent is noticed (and the head seen) within it; long enough that
 * a 2 s chain whose blocks come a little late is not read between them.
 */
export const POOL_STATE_SAFETY_POLL_MS = POOL_STATE_STALE_MS - 500;

/**
 * The head follower (docs/architecture.md, "The head follower"): pool state that follows the chain
 * (docs/rules.md, comparison rule 14), stepped at each head the node's `newHeads` subscription announces
 * (`headsUrl`, a WebSocket endpoint) and after `POOL_STATE_SAFETY_POLL_MS` of quiet, or polling timed to
 * the chain's blocks without one, fresh for quoting for three `POOL_STATE_FOLLOW_MS` after it last saw
 * the head; each new block's one `eth_getLogs` also brings the factories' creations, the registry's and the
 * collector's logs, and every step drives the chain's other per-block tasks (head-tasks.ts: the pool index,
 * activations, the settlement index). The mode is logged at start and at every fallback and recovery (never
 * the URL) and reported to `metrics`. A sampled pool that differs from a direct read is logged and counted
 * (`onMismatch`); a failed step is logged and retried. One `stop` stops all of it.
 */
export function followChainAndPools(deps: {
  index: PoolIndex;
  client: PublicClient;
  deployment: { contracts: Contracts };
  logger: Logger;
  metrics: { followedMismatch: (kind: string) => void; followMode: (mode: FollowMode) => void };
  /** The node's WebSocket endpoint, to subscribe to new heads; unset: polling alone. */
  headsUrl?: string | undefined;
  freshness: IndexFreshness;
  /** Whether this process indexes the chain now: only the indexer advances and saves the indexes. */
  isIndexer: () => boolean;
  activations: HeadTaskDeps["activations"];
  settlements: HeadTaskDeps["settlements"];
  facts?: HeadTaskDeps["facts"];
  onSettlementError: (error: unknown) => void;
}): { stop: () => Promise<void>; followed: FollowedSource; allFollowed: Promise<void> } {
  const { index, deployment, logger, freshness } = deps;
  // Each says its first failure at once and then its repeats once a minute, counted (logger.ts).
  const syncFailed = repeatingWarning(logger, "pool index sync failed; retrying");
  const mismatched = repeatingWarning(
    logger,
    "followed pool state differed from a direct read; reading it directly",
  );
  const stepFailed = repeatingWarning(
    logger,
    "following pool state failed; quotes read pools directly until it catches up",
  );
  const tasks = headTasks({
    index,
    isIndexer: deps.isIndexer,
    freshness,
    activations: deps.activations,
    settlements: deps.settlements,
    ...(deps.facts ? { facts: deps.facts } : {}),
    recorders: [deployment.contracts.settlementCollector, deployment.contracts.executor],
    onIndexError: (error) => syncFailed.warn({ err: error }),
    onSettlementError: deps.onSettlementError,
  });
  const tellAdoption = adoptionProgress((line) => logger.info(line));
  let followedAll: () => void = () => {};
  const allFollowed = new Promise<void>((resolve) => {
    followedAll = resolve;
  });
  const followed = createFollowedState({
    client: deps.client,
    pools: () => index.pools(),
    ...(deployment.contracts.v4PoolManager ? { poolManager: deployment.contracts.v4PoolManager } : {}),
    // Fee terms read at one block serve every block until the registry logs again (block-reads.ts).
    watch: { addresses: [deployment.contracts.builderRegistry], events: REGISTRY_EVENTS },
    observe: { events: [...DISCOVERY_EVENTS, SETTLED, ATTRIBUTED], onBlocks: tasks.onBlocks },
    staleAfterMs: POOL_STATE_STALE_MS,
    onAdopted: (progress) => {
      tellAdoption(progress);
      if (progress.left === 0) followedAll();
    },
    onMismatch: (pool, field) => {
      mismatched.warn({ pool: pool.kind === "v4" ? pool.poolId : pool.address, field });
      deps.metrics.followedMismatch(pool.kind);
    },
  });
  const { headsUrl } = deps;
  const stepper = followed.start({
    pollMs: POOL_STATE_FOLLOW_MS,
    onError: (error) => stepFailed.warn({ err: error }),
    ...(headsUrl
      ? {
          heads: {
            subscribe: (handlers) => subscribeNewHeads(headsUrl, handlers),
            safetyPollMs: POOL_STATE_SAFETY_POLL_MS,
          },
        }
      : {}),
    onMode: (change) => {
      deps.metrics.followMode(change.mode);
      logFollowMode(logger, change, headsUrl !== undefined);
    },
  });
  return {
    followed,
    allFollowed,
    stop: async () => {
      await stepper.stop();
      await tasks.stop();
      for (const warning of [syncFailed, mismatched, stepFailed]) warning.stop();
    },
  };
}

/** The follow mode at start (info, or warn when the subscription failed), and every fallback and recovery (warn). */
function logFollowMode(logger: Logger, change: FollowModeChange, configured: boolean): void {
  const polling = "following pool state by polling the head, timed to the chain's blocks";
  const subscribed = `following pool state by a newHeads subscription (the head is also read after ${POOL_STATE_SAFETY_POLL_MS} ms of quiet)`;
  const err = change.error ? { err: change.error } : {};
  if (change.mode === "subscription") {
    if (change.at === "start") logger.info(subscribed);
    else logger.warn(`newHeads subscription restored; ${subscribed}`);
  } else if (!configured) logger.info(`${polling} (no WebSocket endpoint configured)`);
  else if (change.at === "start")
    logger.warn(err, `newHeads subscription unavailable; ${polling} while it is tried again`);
  else logger.warn(err, `newHeads subscription lost; ${polling} while it is tried again`);
}
