import { maxUint256 } from "viem";
/**
 * Integer price helpers for seeding pools. Prices are given as a ratio of raw amounts (token1 per token0 in
 * base units) so no float touches an amount; floats appear only to pick tick indices, which are positions,
 * not money.
 */

export const Q96 = 2n ** 96n;
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** Integer square root (floor), by Newton's method from above. */
export function sqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError("sqrt of a negative number");
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) >> 1n;
  while (y < x) {
    x = y;
    y = (x + value / x) >> 1n;
  }
  return x;
}

/** sqrt(amount1 / amount0) in Q64.96, the form V3 and V4 pools are initialized with. */
export function sqrtPriceX96(amount0: bigint, amount1: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0);
}

/** The tick whose price is closest below `sqrtPriceX96` (float log; exact enough to place ranges). */
export function approximateTick(sqrtPriceX96: bigint): number {
  const ratio = Number(sqrtPriceX96) / Number(Q96);
  return Math.floor(Math.log(ratio * ratio) / Math.log(1.0001));
}

/** sqrt(1.0001^tick) in Q64.96, exactly as TickMath.getSqrtRatioAtTick computes it. */
export function sqrtRatioAtTick(tick: number): bigint {
  const absTick = BigInt(Math.abs(tick));
  if (absTick > BigInt(MAX_TICK)) throw new RangeError("tick out of range");
  const factors: [bigint, bigint][] = [
    [0x2n, 0xfff97272373d413259a46990580e213an],
    [0x4n, 0xfff2e50f5f656932ef12357cf3c7fdccn],
    [0x8n, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
    [0x10n, 0xffcb9843d60f6159c9db58835c926644n],
    [0x20n, 0xff973b41fa98c081472e6896dfb254c0n],
    [0x40n, 0xff2ea16466c96a3843ec78b326b52861n],
    [0x80n, 0xfe5dee046a99a2a811c461f1969c3053n],
    [0x100n, 0xfcbe86c7900a88aedcffc83b479aa3a4n],
    [0x200n, 0xf987a7253ac413176f2b074cf7815e54n],
    [0x400n, 0xf3392b0822b70005940c7a398e4b70f3n],
    [0x800n, 0xe7159475a2c29b7443b29c7fa6e889d9n],
    [0x1000n, 0xd097f3bdfd2022b8845ad8f792aa5825n],
    [0x2000n, 0xa9f746462d870fdf8a65dc1f90e061e5n],
    [0x4000n, 0x70d869a156d2a1b890bb3df62baf32f7n],
    [0x8000n, 0x31be135f97d08fd981231505542fcfa6n],
    [0x10000n, 0x9aa508b5b7a84e1c677de54f3e99bc9n],
    [0x20000n, 0x5d6af8dedb81196699c329225ee604n],
    [0x40000n, 0x2216e584f5fa1ea926041bedfe98n],
    [0x80000n, 0x48a170391f7dc42444e8fa2n],
  ];
  let ratio =
    (absTick & 0x1n) !== 0n ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  for (const [bit, factor] of factors) if ((absTick & bit) !== 0n) ratio = (ratio * factor) >> 128n;
  if (tick > 0) ratio = maxUint256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** Rounds a tick down to a multiple of `spacing`, clamped to the usable range. */
export function alignTick(tick: number, spacing: number): number {
  const min = Math.ceil(MIN_TICK / spacing) * spacing;
  const max = Math.floor(MAX_TICK / spacing) * spacing;
  return Math.min(max, Math.max(min, Math.floor(tick / spacing) * spacing));
}

/**
 * Liquidity a position in [sqrtA, sqrtB] holds when the price is sqrtP and it must contain `amount1`
 * of token1 (or, when the range sits entirely above the price, `amount0` of token0).
 */
export function liquidityForAmounts(
  sqrtP: bigint,
  sqrtA: bigint,
  sqrtB: bigint,
  amount0: bigint,
  amount1: bigint,
): bigint {
  const liquidity0 = (lo: bigint) => (amount0 * ((lo * sqrtB) / Q96)) / (sqrtB - lo);
  const liquidity1 = (hi: bigint) => (amount1 * Q96) / (hi - sqrtA);
  if (sqrtP <= sqrtA) return liquidity0(sqrtA);
  if (sqrtP >= sqrtB) return liquidity1(sqrtB);
  const l0 = liquidity0(sqrtP);
  const l1 = liquidity1(sqrtP);
  return l0 < l1 ? l0 : l1;
}

/** Token amounts (rounded up) that `liquidity` in [sqrtA, sqrtB] requires at price sqrtP. */
export function amountsForLiquidity(
  sqrtP: bigint,
  sqrtA: bigint,
  sqrtB: bigint,
  liquidity: bigint,
): { amount0: bigint; amount1: bigint } {
  const divUp = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const amount0 = (lo: bigint) => divUp(divUp(liquidity * Q96 * (sqrtB - lo), sqrtB), lo);
  const amount1 = (hi: bigint) => divUp(liquidity * (hi - sqrtA), Q96);
  if (sqrtP <= sqrtA) return { amount0: amount0(sqrtA), amount1: 0n };
  if (sqrtP >= sqrtB) return { amount0: 0n, amount1: amount1(sqrtB) };
  return { amount0: amount0(sqrtP), amount1: amount1(sqrtP) };
}
