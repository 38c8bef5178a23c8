import { type Address, toFunctionSelector } from "viem";
import { type Read, viewData } from "../read/read.ts";

/** A V2 pair to read: the pool index's V2 pools fit this shape. */
export type V2PoolRef = { kind: "v2"; address: Address };

const GET_RESERVES = viewData(toFunctionSelector("getReserves()"));

/** The pair's reserves (`getReserves`, words 0 and 1), the whole state V2 math needs. */
export function v2ReservesRead(pool: V2PoolRef): Read<{ reserve0: bigint; reserve1: bigint }> {
  return {
    kind: "view",
    target: pool.address,
    data: GET_RESERVES,
    words: [0, 1],
    decode: ([reserve0, reserve1]) => ({ reserve0: reserve0!, reserve1: reserve1! }),
  };
}
