import { applyConcentratedEvents } from "../concentrated/apply-events.ts";
import { concentratedDifference } from "../concentrated/difference.ts";
import { followedFromRead } from "../concentrated/followed-from-read.ts";
import { firstReadWindow, heldView, narrowed } from "../concentrated/held-window.ts";
import { concentratedDepth, concentratedMarginalRate, concentratedSpotRate } from "../concentrated/rates.ts";
import { poolRef } from "../pool-index/pool.ts";
import type { PoolKind } from "../pool-kind.ts";
import { type ConcentratedExtra, concentratedJob, hintExtra } from "../read/load-job.ts";
import type { LoadOptions } from "../read/load-pool-states.ts";
import { V3_BURN, V3_INITIALIZE, V3_MINT, V3_SET_FEE_PROTOCOL, V3_SWAP } from "./events.ts";
import { v3EventOf } from "./pool-event.ts";
import { type V3PoolRef, v3Reads } from "./read-state.ts";
import type { V3PoolSnapshot } from "./snapshot.ts";
import { v3ExactInPath } from "./swap.ts";

/** A V3 pool's load: its reads as view calls on the pool, its snapshot with the pool's fee. */
function v3Job(pool: Omit<V3PoolRef, "kind">, options: LoadOptions, extra: ConcentratedExtra) {
  const reads = {
    slot0: () => v3Reads.slot0(pool.address),
    liquidity: () => v3Reads.liquidity(pool.address),
    word: (wordPos: number) => v3Reads.word(pool.address, wordPos),
    liquidityNet: (tick: number) => v3Reads.liquidityNet(pool.address, tick),
  };
  return concentratedJob(reads, pool.tickSpacing, options, extra, (state) => ({
    ...state,
    kind: "v3",
    address: pool.address,
    blockNumber: options.blockNumber,
    fee: pool.fee,
  }));
}

/** Uniswap V3 pools: concentrated liquidity, one pool contract each (docs/architecture.md, "Pool kinds"). */
export const v3 = {
  loadJob: (pool, options) => v3Job(pool, options, hintExtra(options, poolRef(pool))),
  extendJob: (snapshot, options, extra) => v3Job(snapshot, options, extra),
  hintOf: (snapshot) => ({ tick: snapshot.tick, initializedTicks: [...snapshot.liquidityNet.keys()] }),
  differenceOf: (a, b) => concentratedDifference(a, b, [["fee", a.fee, b.fee]]),

  events: [V3_INITIALIZE, V3_SWAP, V3_MINT, V3_BURN, V3_SET_FEE_PROTOCOL],
  eventOf: v3EventOf,
  applyEvents: (state, events) => applyConcentratedEvents(state, events, "none"),
  // A tick's gross liquidity is the first word of `ticks(tick)`.
  grossReads: (pool, snapshot) =>
    [...snapshot.liquidityNet.keys()].map((tick) => {
      const read = v3Reads.liquidityNet(pool.address, tick);
      if (read.kind !== "view") throw new RangeError("a V3 tick is read by a view call");
      return { tick, read: { ...read, words: [0], decode: (words: readonly bigint[]) => words[0]! } };
    }),
  followedOf: (snapshot, gross) => followedFromRead(snapshot, gross),
  heldView,
  firstRead: (state) => narrowed(state, firstReadWindow(state)),
  depthOf: concentratedDepth,

  exactIn: v3ExactInPath,
  marginalRate: (snapshot, zeroForOne) =>
    concentratedMarginalRate(snapshot, zeroForOne, BigInt(snapshot.fee)),
  spotRate: (snapshot, zeroForOne) => concentratedSpotRate(snapshot, zeroForOne, snapshot.fee),
} satisfies PoolKind<V3PoolRef, V3PoolSnapshot>;
