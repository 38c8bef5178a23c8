import { maxUint256 } from "viem";
import { SwapMathError } from "./errors.ts";

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
  if (tick > 0) ratio = maxUint256 / ratio;
  // Q128.128 to Q128.96, rounding up so that getTickAtSqrtPrice of the result is consistent.
  return (ratio >> 32n) + (ratio & 0xffffffffn ? 1n : 0n);
}

/** 2 / ln(1.0001): ticks per unit of ln(sqrt price). */
const TICKS_PER_LN_SQRT = 2 / Math.log(1.0001);
const LN_Q96 = 96 * Math.LN2;

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96`: what TickMath.getTickAtSqrtPrice returns
 * (its fixed-point log2 is proven to land on exactly this tick, and the tests hold this function to that
 * port on random and boundary prices). Valid for MIN_SQRT_PRICE <= sqrtPriceX96 < MAX_SQRT_PRICE.
 *
 * Computed by estimating the tick with a float logarithm and settling it with exact getSqrtPriceAtTick
 * comparisons, about five times faster than replaying the 14 bigint squarings; it runs once per partial
 * swap step. The float estimate is off by far less than 1e-6 of a tick (a 1e-16 relative error on a
 * log below 50, and getSqrtPriceAtTick's upward rounding is at most one unit, under 5e-6 of a tick even
 * at the smallest prices), so a fraction well inside (0.001, 0.999) settles the floor without comparisons.
 */
export function getTickAtSqrtPrice(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE)
    throw new SwapMathError("invalidPrice", `sqrt price ${sqrtPriceX96} outside the tick range`);
  const estimate = (Math.log(Number(sqrtPriceX96)) - LN_Q96) * TICKS_PER_LN_SQRT;
  let tick = Math.floor(estimate);
  const fraction = estimate - tick;
  if (fraction > 0.001 && fraction < 0.999) return tick;
  tick = Math.min(Math.max(tick, MIN_TICK), MAX_TICK - 1);
  while (tick > MIN_TICK && getSqrtPriceAtTick(tick) > sqrtPriceX96) tick--;
  while (tick < MAX_TICK - 1 && getSqrtPriceAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}
