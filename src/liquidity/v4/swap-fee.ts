import { calculateSwapFee, getOneForZeroFee, getZeroForOneFee } from "../math/protocol-fee.ts";
import type { V4PoolSnapshot } from "./snapshot.ts";

/**
 * The fee a V4 swap charges on its input in this direction, in pips: the LP fee alone when the
 * direction's protocol fee is zero, else both composed as Pool.swap does (ProtocolFeeLibrary).
 */
export function v4SwapFee(pool: Pick<V4PoolSnapshot, "lpFee" | "protocolFee">, zeroForOne: boolean): bigint {
  const protocolFee = zeroForOne ? getZeroForOneFee(pool.protocolFee) : getOneForZeroFee(pool.protocolFee);
  return BigInt(protocolFee === 0 ? pool.lpFee : calculateSwapFee(protocolFee, pool.lpFee));
}
