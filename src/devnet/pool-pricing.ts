import { amountForUsd } from "./universe.ts";

/**
 * Raw amounts of each side worth half of `depthUsd`, with token1 nudged by `dislocationBps` so pools on the
 * same pair disagree slightly, as they do in the wild. Their ratio is the pool's initial price.
 */
export function seedAmounts(
  symbol0: string,
  symbol1: string,
  depthUsd: bigint,
  dislocationBps: number,
): { amount0: bigint; amount1: bigint } {
  const half = depthUsd / 2n;
  return {
    amount0: amountForUsd(symbol0, half),
    amount1: (amountForUsd(symbol1, half) * BigInt(10_000 + dislocationBps)) / 10_000n,
  };
}
