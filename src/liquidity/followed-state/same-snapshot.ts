import type { PoolSnapshot } from "../read/load-pool-states.ts";

/**
 * The first field in which two snapshots of a pool differ (price, tick, liquidity, fees, reserves, the
 * bitmap window and its words, each tick's liquidityNet), or undefined when they are equal wei for wei.
 */
export function snapshotDifference(a: PoolSnapshot, b: PoolSnapshot): string | undefined {
  if (a.kind !== b.kind) return "kind";
  if (a.blockNumber !== b.blockNumber) return "blockNumber";
  if (a.kind === "v2" || b.kind === "v2") {
    if (a.kind !== "v2" || b.kind !== "v2") return "kind";
    if (a.reserve0 !== b.reserve0) return "reserve0";
    return a.reserve1 !== b.reserve1 ? "reserve1" : undefined;
  }
  for (const field of ["sqrtPriceX96", "tick", "liquidity", "tickSpacing"] as const)
    if (a[field] !== b[field]) return field;
  if (a.kind === "v3" && b.kind === "v3" && a.fee !== b.fee) return "fee";
  if (a.kind === "v4" && b.kind === "v4") {
    if (a.lpFee !== b.lpFee) return "lpFee";
    if (a.protocolFee !== b.protocolFee) return "protocolFee";
  }
  if (a.bitmap.from !== b.bitmap.from || a.bitmap.to !== b.bitmap.to) return "bitmap window";
  const sameMap = <T>(x: ReadonlyMap<number, T>, y: ReadonlyMap<number, T>) =>
    x.size === y.size && [...x].every(([key, value]) => y.get(key) === value);
  if (!sameMap(a.bitmap.words, b.bitmap.words)) return "bitmap words";
  return sameMap(a.liquidityNet, b.liquidityNet) ? undefined : "liquidityNet";
}
