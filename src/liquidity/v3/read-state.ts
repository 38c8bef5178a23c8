import type { Address } from "viem";
import { uniswapV3PoolAbi } from "../../contracts/abis/UniswapV3Pool.ts";
import type { Read } from "../read/read.ts";

/** A V3 pool to read: the pool index's V3 pools fit this shape. */
export type V3PoolRef = { kind: "v3"; address: Address; fee: number; tickSpacing: number };

/**
 * The V3 reads the swap needs, as view calls on the pool at `pool`: `slot0`, `liquidity`, `tickBitmap(word)` and
 * `ticks(tick).liquidityNet`. The batched loader (`loadPoolStates`) decides which words and ticks.
 */
export const v3Reads = {
  slot0: (pool: Address): Read<{ sqrtPriceX96: bigint; tick: number }> => ({
    kind: "call",
    call: { address: pool, abi: uniswapV3PoolAbi, functionName: "slot0" },
    returnBytes: 7 * 32,
    decode: (result) => {
      const [sqrtPriceX96, tick] = result as readonly [bigint, number];
      return { sqrtPriceX96, tick };
    },
  }),
  liquidity: (pool: Address): Read<bigint> => ({
    kind: "call",
    call: { address: pool, abi: uniswapV3PoolAbi, functionName: "liquidity" },
    returnBytes: 32,
    decode: (result) => result as bigint,
  }),
  word: (pool: Address, wordPos: number): Read<bigint> => ({
    kind: "call",
    call: { address: pool, abi: uniswapV3PoolAbi, functionName: "tickBitmap", args: [wordPos] },
    returnBytes: 32,
    decode: (result) => result as bigint,
  }),
  liquidityNet: (pool: Address, tick: number): Read<bigint> => ({
    kind: "call",
    call: { address: pool, abi: uniswapV3PoolAbi, functionName: "ticks", args: [tick] },
    returnBytes: 8 * 32,
    decode: (result) => (result as readonly [bigint, bigint])[1],
  }),
};
