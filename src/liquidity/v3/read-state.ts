import { type Address, maxUint160, toFunctionSelector } from "viem";
import { type Read, viewData } from "../read/read.ts";

/** A V3 pool to read: the pool index's V3 pools fit this shape. */
export type V3PoolRef = { kind: "v3"; address: Address; fee: number; tickSpacing: number };

const SLOT0 = viewData(toFunctionSelector("slot0()"));
const LIQUIDITY = viewData(toFunctionSelector("liquidity()"));
const TICK_BITMAP = toFunctionSelector("tickBitmap(int16)");
const TICKS = toFunctionSelector("ticks(int24)");

/** A word the pool returned for a value of `bits` bits, checked to be one (a canonical pool's always is). */
function signed(word: bigint, bits: number): bigint {
  const value = BigInt.asIntN(256, word);
  if (value !== BigInt.asIntN(bits, word)) throw new RangeError(`not an int${bits}: ${word}`);
  return value;
}

/**
 * The V3 reads the swap needs, as view calls on the pool at `pool`: `slot0` (sqrtPriceX96, tick),
 * `liquidity`, `tickBitmap(word)` and `ticks(tick).liquidityNet` (the second word). The batched loader
 * (`loadPoolStates`) decides which words and ticks.
 */
export const v3Reads = {
  slot0: (pool: Address): Read<{ sqrtPriceX96: bigint; tick: number }> => ({
    kind: "view",
    target: pool,
    data: SLOT0,
    words: [0, 1],
    decode: ([sqrtPriceX96, tick]) => {
      if (sqrtPriceX96! > maxUint160) throw new RangeError(`not a uint160: ${sqrtPriceX96}`);
      return { sqrtPriceX96: sqrtPriceX96!, tick: Number(signed(tick!, 24)) };
    },
  }),
  liquidity: (pool: Address): Read<bigint> => ({
    kind: "view",
    target: pool,
    data: LIQUIDITY,
    words: [0],
    decode: ([liquidity]) => {
      if (liquidity! >= 2n ** 128n) throw new RangeError(`not a uint128: ${liquidity}`);
      return liquidity!;
    },
  }),
  word: (pool: Address, wordPos: number): Read<bigint> => ({
    kind: "view",
    target: pool,
    data: viewData(TICK_BITMAP, wordPos),
    words: [0],
    decode: ([word]) => word!,
  }),
  liquidityNet: (pool: Address, tick: number): Read<bigint> => ({
    kind: "view",
    target: pool,
    data: viewData(TICKS, tick),
    words: [1],
    decode: ([liquidityNet]) => signed(liquidityNet!, 128),
  }),
};
