import type { Hex } from "viem";
import type { ConcentratedPoolState } from "../concentrated/pool-state.ts";

/** A hook-free, static-fee V4 pool's swap state at one pinned block, read from the PoolManager. */
export type V4PoolSnapshot = ConcentratedPoolState & {
  kind: "v4";
  poolId: Hex;
  blockNumber: bigint;
  /** slot0's LP fee in pips. */
  lpFee: number;
  /** slot0's packed protocol fee: 12 bits per direction (ProtocolFeeLibrary). */
  protocolFee: number;
};
