import type { FollowedConcentrated, TickLiquidity } from "./followed.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * A concentrated pool's followed state from a direct read over its held window and each initialized tick's
 * gross liquidity (`gross`, read beside it; a tick missing there counts as 0).
 */
export function followedFromRead<Kind extends FollowedConcentrated["kind"]>(
  snapshot: ConcentratedPoolState,
  gross: ReadonlyMap<number, bigint> | undefined,
  fees: { kind: Kind; fee: number; protocolFee: number },
): FollowedConcentrated & { kind: Kind } {
  const ticks = new Map<number, TickLiquidity>();
  for (const [tick, net] of snapshot.liquidityNet) ticks.set(tick, { gross: gross?.get(tick) ?? 0n, net });
  return {
    kind: fees.kind,
    sqrtPriceX96: snapshot.sqrtPriceX96,
    tick: snapshot.tick,
    liquidity: snapshot.liquidity,
    tickSpacing: snapshot.tickSpacing,
    held: { from: snapshot.bitmap.from, to: snapshot.bitmap.to },
    words: snapshot.bitmap.words,
    ticks,
    fee: fees.fee,
    protocolFee: fees.protocolFee,
  };
}
