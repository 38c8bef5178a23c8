import type { Address } from "viem";

/** A V2 pair's reserves at one pinned block (`getReserves`). */
export type V2PoolSnapshot = {
  kind: "v2";
  address: Address;
  blockNumber: bigint;
  reserve0: bigint;
  reserve1: bigint;
};
