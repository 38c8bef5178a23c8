import type { Address } from "viem";
import type { ConcentratedPoolState } from "../concentrated/pool-state.ts";

/** A V3 pool's swap state at one pinned block: slot0, liquidity, the loaded bitmap words and ticks. */
export type V3PoolSnapshot = ConcentratedPoolState & {
  kind: "v3";
  address: Address;
  blockNumber: bigint;
  /** The pool's fee in pips (100, 500, 3000, 10000); V3's protocol fee comes out of it, not on top. */
  fee: number;
};
