import { type Address, type Hex, hexToBigInt, maxUint128 } from "viem";
import { applyConcentratedEvents } from "../concentrated/apply-events.ts";
import { concentratedDifference } from "../concentrated/difference.ts";
import { followedFromRead } from "../concentrated/followed-from-read.ts";
import { firstReadWindow, heldView, narrowed } from "../concentrated/held-window.ts";
import { concentratedDepth, concentratedMarginalRate, concentratedSpotRate } from "../concentrated/rates.ts";
import { poolRef } from "../pool-index/pool.ts";
import type { PoolKind } from "../pool-kind.ts";
import { type ConcentratedExtra, concentratedJob, failedJob, hintExtra } from "../read/load-job.ts";
import type { LoadOptions } from "../read/load-pool-states.ts";
import { V4_FOLLOWED_EVENTS } from "./events.ts";
import { v4EventOf } from "./pool-event.ts";
import { isHookFreeStaticFee, type V4PoolRef, v4Reads } from "./read-state.ts";
import type { V4PoolSnapshot } from "./snapshot.ts";
import { v4ExactInPath } from "./swap.ts";
import { v4SwapFee } from "./swap-fee.ts";

/**
 * A V4 pool's load: its reads as PoolManager storage slots (none without the PoolManager: `unsupported`),
 * its snapshot with slot0's LP and protocol fees.
 */
function v4Job(poolId: Hex, tickSpacing: number, options: LoadOptions, extra: ConcentratedExtra) {
  const poolManager = options.v4PoolManager;
  const reads = poolManager && {
    slot0: () => v4Reads.slot0(poolManager, poolId),
    liquidity: () => v4Reads.liquidity(poolManager, poolId),
    word: (wordPos: number) => v4Reads.word(poolManager, poolId, wordPos),
    liquidityNet: (tick: number) => v4Reads.liquidityNet(poolManager, poolId, tick),
  };
  return concentratedJob(reads, tickSpacing, options, extra, (state, slot0) => ({
    ...state,
    kind: "v4",
    poolId,
    blockNumber: options.blockNumber,
    lpFee: slot0.lpFee ?? 0,
    protocolFee: slot0.protocolFee ?? 0,
  }));
}

/**
 * Uniswap V4 pools: concentrated liquidity in the PoolManager's storage, keyed by pool id; only hook-free,
 * static-fee pools are priced (docs/rules.md, comparison rule 10; docs/architecture.md, "Pool kinds").
 */
export const v4 = {
  loadJob: (pool, options) =>
    isHookFreeStaticFee(pool)
      ? v4Job(pool.poolId, pool.key.tickSpacing, options, hintExtra(options, poolRef(pool)))
      : failedJob("unsupported"),
  extendJob: (snapshot, options, extra) => v4Job(snapshot.poolId, snapshot.tickSpacing, options, extra),
  hintOf: (snapshot) => ({ tick: snapshot.tick, initializedTicks: [...snapshot.liquidityNet.keys()] }),
  differenceOf: (a, b) =>
    concentratedDifference(a, b, [
      ["lpFee", a.lpFee, b.lpFee],
      ["protocolFee", a.protocolFee, b.protocolFee],
    ]),

  events: V4_FOLLOWED_EVENTS,
  eventOf: v4EventOf,
  applyEvents: (state, events) => applyConcentratedEvents(state, events, "on top"),
  // A tick's gross liquidity is the low 128 bits of its first slot.
  grossReads: (pool, snapshot, poolManager) =>
    [...snapshot.liquidityNet.keys()].map((tick) => {
      const read = v4Reads.liquidityNet(poolManager as Address, pool.poolId, tick);
      if (read.kind !== "slot") throw new RangeError("a V4 tick is read from a storage slot");
      return { tick, read: { ...read, decode: (value: Hex) => hexToBigInt(value) & maxUint128 } };
    }),
  followedOf: (snapshot, gross) => followedFromRead(snapshot, gross),
  heldView,
  firstRead: (state) => narrowed(state, firstReadWindow(state)),
  depthOf: concentratedDepth,

  exactIn: v4ExactInPath,
  marginalRate: (snapshot, zeroForOne) =>
    concentratedMarginalRate(snapshot, zeroForOne, v4SwapFee(snapshot, zeroForOne)),
  spotRate: (snapshot, zeroForOne) =>
    concentratedSpotRate(snapshot, zeroForOne, Number(v4SwapFee(snapshot, zeroForOne))),
} satisfies PoolKind<V4PoolRef, V4PoolSnapshot>;
