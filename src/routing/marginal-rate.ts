import type { V2PoolSnapshot } from "../liquidity/v2/snapshot.ts";
import type { V3PoolSnapshot } from "../liquidity/v3/snapshot.ts";
import type { V4PoolSnapshot } from "../liquidity/v4/snapshot.ts";
import { v4SwapFee } from "../liquidity/v4/swap-fee.ts";

/** A non-negative rational number, kept exact: `num / den` with `den` > 0. */
export type Ratio = { num: bigint; den: bigint };

const PIPS = 1_000_000n;
const Q192 = 1n << 192n;

/**
 * A pool's marginal rate in one direction, exactly: output per unit of input for an infinitesimal trade at
 * the snapshot's price, after the pool's fee (docs/rules.md, price impact rule 1). V2: 997·reserveOut /
 * (1000·reserveIn). V3 and V4: the price sqrtPriceX96² / 2¹⁹² (token1 per token0), or its inverse selling
 * token1, times (1 − fee) with the fee in pips (V4: the LP fee composed with the direction's protocol fee,
 * as Pool.swap charges it; V3's protocol fee comes out of the LP fee and does not change the rate).
 * `spotRate` in edge.ts is the same number as a float.
 */
export function marginalRate(
  snapshot: V2PoolSnapshot | V3PoolSnapshot | V4PoolSnapshot,
  zeroForOne: boolean,
): Ratio {
  if (snapshot.kind === "v2") {
    const [reserveIn, reserveOut] = zeroForOne
      ? [snapshot.reserve0, snapshot.reserve1]
      : [snapshot.reserve1, snapshot.reserve0];
    return { num: 997n * reserveOut, den: 1000n * reserveIn };
  }
  const fee = snapshot.kind === "v3" ? BigInt(snapshot.fee) : v4SwapFee(snapshot, zeroForOne);
  const priceNum = snapshot.sqrtPriceX96 * snapshot.sqrtPriceX96;
  return zeroForOne
    ? { num: priceNum * (PIPS - fee), den: Q192 * PIPS }
    : { num: Q192 * (PIPS - fee), den: priceNum * PIPS };
}
