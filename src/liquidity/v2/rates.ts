import type { Ratio } from "../math/ratio.ts";
import type { V2PoolSnapshot } from "./snapshot.ts";

/** A pair's marginal rate in one direction, exactly: 997·reserveOut / (1000·reserveIn). */
export function v2MarginalRate(snapshot: V2PoolSnapshot, zeroForOne: boolean): Ratio {
  const [reserveIn, reserveOut] = zeroForOne
    ? [snapshot.reserve0, snapshot.reserve1]
    : [snapshot.reserve1, snapshot.reserve0];
  return { num: 997n * reserveOut, den: 1000n * reserveIn };
}

/** `v2MarginalRate` as a float (0 for an empty input reserve). */
export function v2SpotRate(snapshot: V2PoolSnapshot, zeroForOne: boolean): number {
  const [reserveIn, reserveOut] = zeroForOne
    ? [snapshot.reserve0, snapshot.reserve1]
    : [snapshot.reserve1, snapshot.reserve0];
  return reserveIn > 0n ? (0.997 * Number(reserveOut)) / Number(reserveIn) : 0;
}
