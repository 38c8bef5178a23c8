import type { Address } from "viem";
import { uniswapV2PairAbi } from "../../contracts/abis/UniswapV2Pair.ts";
import type { Read } from "../read/read.ts";

/** A V2 pair to read: the pool index's V2 pools fit this shape. */
export type V2PoolRef = { kind: "v2"; address: Address };

/** The pair's reserves (`getReserves`), the whole state V2 math needs. */
export function v2ReservesRead(pool: V2PoolRef): Read<{ reserve0: bigint; reserve1: bigint }> {
  return {
    kind: "call",
    call: { address: pool.address, abi: uniswapV2PairAbi, functionName: "getReserves" },
    returnBytes: 96,
    decode: (result) => {
      const [reserve0, reserve1] = result as readonly [bigint, bigint, number];
      return { reserve0, reserve1 };
    },
  };
}
