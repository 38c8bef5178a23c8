import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * A concentrated pool's followed state from a direct read over its held window and each initialized tick's
 * gross liquidity (`gross`, read beside it; a tick missing there counts as 0): the read itself, with
 * `liquidityGross` beside its `liquidityNet`.
 */
export function followedFromRead<State extends ConcentratedPoolState>(
  snapshot: State,
  gross: ReadonlyMap<number, bigint> | undefined,
): State {
  const liquidityGross = new Map<number, bigint>();
  for (const tick of snapshot.liquidityNet.keys()) liquidityGross.set(tick, gross?.get(tick) ?? 0n);
  return { ...snapshot, liquidityGross };
}
