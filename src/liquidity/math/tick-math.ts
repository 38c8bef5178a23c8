import { SwapMathError } from "./errors.ts";
import { MAX_UINT256 } from "./full-math.ts";

/** TickMath bounds, identical in v3-core and v4-core. */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
/** getSqrtPriceAtTick(MIN_TICK) and getSqrtPriceAtTick(MAX_TICK). */
export const MIN_SQRT_PRICE = 4295128739n;
export const MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342n;

/** The magic factors of TickMath.getSqrtPriceAtTick: 2^128 / sqrt(1.0001)^(2^i), for bit i of |tick|. */
const FACTORS = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
] as const;

/**
 * sqrt(1.0001^tick) * 2^96 as a Q64.96, rounded up, exactly as TickMath.getSqrtPriceAtTick (v4-core;
 * getSqrtRatioAtTick in v3-core, same constants and rounding).
 */
export function getSqrtPriceAtTick(tick: number): bigint {
  const absTick = tick < 0 ? -tick : tick;
  if (!Number.isInteger(tick) || absTick > MAX_TICK)
    throw new SwapMathError("invalidTick", `tick ${tick} outside [${MIN_TICK}, ${MAX_TICK}]`);
  let ratio = absTick & 1 ? FACTORS[0] : 1n << 128n;
  for (let bit = 1; bit < FACTORS.length; bit++) {
    if (absTick & (1 << bit)) ratio = (ratio * FACTORS[bit]!) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  // Q128.128 to Q128.96, rounding up so that getTickAtSqrtPrice of the result is consistent.
  return (ratio >> 32n) + (ratio & 0xffffffffn ? 1n : 0n);
}

const LOG_SQRT10001 = 255738958999603826347141n;
const TICK_LOW_OFFSET = 3402992956809132418596140100660247210n;
const TICK_HIGH_OFFSET = 291339464771989622907027621153398088495n;

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96`, exactly as TickMath.getTickAtSqrtPrice:
 * the same fixed-point log2 (14 squarings), the same error bounds, and the same final check against
 * getSqrtPriceAtTick. Valid for MIN_SQRT_PRICE <= sqrtPriceX96 < MAX_SQRT_PRICE.
 */
export function getTickAtSqrtPrice(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE)
    throw new SwapMathError("invalidPrice", `sqrt price ${sqrtPriceX96} outside the tick range`);
  const ratio = sqrtPriceX96 << 32n;
  const msb = ratio.toString(2).length - 1;
  let r = msb >= 128 ? ratio >> BigInt(msb - 127) : ratio << BigInt(127 - msb);
  let log2 = BigInt(msb - 128) << 64n;
  for (let shift = 63n; shift >= 50n; shift--) {
    r = (r * r) >> 127n;
    const f = r >> 128n;
    log2 |= f << shift;
    r >>= f;
  }
  const logSqrt10001 = log2 * LOG_SQRT10001;
  const tickLow = Number((logSqrt10001 - TICK_LOW_OFFSET) >> 128n);
  const tickHigh = Number((logSqrt10001 + TICK_HIGH_OFFSET) >> 128n);
  if (tickLow === tickHigh) return tickLow;
  return getSqrtPriceAtTick(tickHigh) <= sqrtPriceX96 ? tickHigh : tickLow;
}
