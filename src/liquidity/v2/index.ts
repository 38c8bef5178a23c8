import { UnfollowableError } from "../followed-state/unfollowable-error.ts";
import type { PoolKind } from "../pool-kind.ts";
import { V2_SYNC } from "./events.ts";
import { quoteV2ExactIn } from "./get-amount-out.ts";
import { v2LoadJob } from "./load-job.ts";
import { v2MarginalRate, v2SpotRate } from "./rates.ts";
import type { V2PoolRef } from "./read-state.ts";
import type { V2PoolSnapshot } from "./snapshot.ts";

/** Uniswap V2 pairs: constant product over two reserves, a 0.30% fee (docs/architecture.md, "Pool kinds"). */
export const v2 = {
  loadJob: (pool, options) => v2LoadJob(pool, options.blockNumber),
  hintOf: () => undefined,
  differenceOf: (a, b) => {
    if (a.reserve0 !== b.reserve0) return "reserve0";
    return a.reserve1 !== b.reserve1 ? "reserve1" : undefined;
  },

  events: [V2_SYNC],
  eventOf: (log) => ({
    key: log.address.toLowerCase(),
    event: { name: "sync", reserve0: log.args.reserve0 as bigint, reserve1: log.args.reserve1 as bigint },
  }),
  applyEvents: (state, events) => {
    let next = state;
    for (const event of events) {
      if (event.name !== "sync") throw new UnfollowableError(`a V2 pair cannot apply ${event.name}`);
      next = { ...next, reserve0: event.reserve0, reserve1: event.reserve1 };
    }
    return next;
  },
  grossReads: () => [],
  followedOf: (snapshot) => snapshot,
  depthOf: (state, side) => Number(side === 0 ? state.reserve0 : state.reserve1),

  exactIn: (snapshot, zeroForOne) => (amountIn) => ({
    status: "filled",
    amountOut: quoteV2ExactIn(snapshot, zeroForOne, amountIn),
    ticksCrossed: 0,
  }),
  marginalRate: v2MarginalRate,
  spotRate: v2SpotRate,
} satisfies PoolKind<V2PoolRef, V2PoolSnapshot>;
