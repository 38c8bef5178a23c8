import { kindOf } from "../pool-kinds.ts";
import type { PoolSnapshot } from "../read/load-pool-states.ts";

/**
 * The first field in which two snapshots of a pool differ (the kind, the block, then the kind's own fields:
 * reserves, or price, tick, liquidity, fees, the bitmap window and its words, each tick's liquidityNet),
 * or undefined when they are equal wei for wei.
 */
export function snapshotDifference(a: PoolSnapshot, b: PoolSnapshot): string | undefined {
  if (a.kind !== b.kind) return "kind";
  if (a.blockNumber !== b.blockNumber) return "blockNumber";
  return kindOf(a).differenceOf(a, b);
}
