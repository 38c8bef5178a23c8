import { type Address, type Hex, zeroAddress } from "viem";
import type { UniswapDeployment } from "../../src/devnet/deploy-uniswap.ts";
import { v2SeedTx } from "../../src/devnet/seed-v2.ts";
import { v3SeedTx } from "../../src/devnet/seed-v3.ts";
import { v4SeedTx } from "../../src/devnet/seed-v4.ts";
import { v2PairAddress, v3PoolAddress } from "../../src/liquidity/pool-index/canonical.ts";
import { type PoolKey, v4PoolId } from "../../src/liquidity/v4/pool-key.ts";
import type { ScalePool, ScaleTokenDeployed } from "./scale-manifest.ts";
import { amountForUsd, type ScalePoolSpec } from "./universe.ts";

/** One pool's seeding transaction (without sender and nonce) and the pool it creates. */
export type SeedCall = { to: Address; data: Hex; value: bigint; gas: bigint; pool: ScalePool };

/**
 * The call that creates and funds a pool, built by the devnet's own seeding transactions (`v2SeedTx`,
 * `v3SeedTx`, `v4SeedTx`) but returned instead of sent, so thousands go out in batches. Amounts come from
 * the synthetic tokens' own prices (the devnet's `seedAmounts` knows only its own symbols). A V4 pool holds
 * native ETH where the universe says WETH, as V4 pools do.
 */
export function seedCall(
  spec: ScalePoolSpec,
  tokens: readonly ScaleTokenDeployed[],
  uniswap: UniswapDeployment,
  from: Address,
): SeedCall {
  const address = (i: number) =>
    spec.kind === "v4" && tokens[i]!.address === uniswap.weth9 ? zeroAddress : tokens[i]!.address;
  const flip = BigInt(address(spec.a)) > BigInt(address(spec.b));
  const [i0, i1] = flip ? [spec.b, spec.a] : [spec.a, spec.b];
  const [token0, token1] = [address(i0), address(i1)];
  const half = spec.depthUsd / 2n;
  // Token b's side carries the dislocation, whichever side of the sorted pair it lands on.
  const amountOf = (i: number) => {
    const amount = amountForUsd(tokens[i]!, half);
    return i === spec.b ? (amount * BigInt(10_000 + spec.dislocationBps)) / 10_000n : amount;
  };
  const [amount0, amount1] = [amountOf(i0), amountOf(i1)];
  const base = { a: spec.a, b: spec.b, token0, token1, depthUsd: spec.depthUsd.toString() };

  if (spec.kind === "v2") {
    const pair = {
      router02: uniswap.v2Router02,
      tokenA: token0,
      tokenB: token1,
      amountA: amount0,
      amountB: amount1,
    };
    return {
      ...v2SeedTx(pair, from),
      value: 0n,
      gas: 4_000_000n,
      pool: {
        ...base,
        kind: "v2",
        address: v2PairAddress(uniswap.v2Factory, uniswap.v2PairInitCodeHash, token0, token1),
      },
    };
  }
  const { fee, tickSpacing, ranges } = spec;
  const positions = BigInt(ranges.length);
  if (spec.kind === "v3") {
    const pool = { token0, token1, fee, tickSpacing, ranges, amount0, amount1 };
    return {
      ...v3SeedTx({ positionManager: uniswap.v3PositionManager, ...pool }, from).tx,
      value: 0n,
      gas: 6_000_000n + 600_000n * positions,
      pool: {
        ...base,
        kind: "v3",
        address: v3PoolAddress(uniswap.v3Factory, uniswap.v3PoolInitCodeHash, token0, token1, fee),
        fee,
        tickSpacing,
      },
    };
  }
  const key: PoolKey = { currency0: token0, currency1: token1, fee, tickSpacing, hooks: zeroAddress };
  return {
    ...v4SeedTx({ positionManager: uniswap.v4PositionManager, key, ranges, amount0, amount1 }, from).tx,
    gas: 1_500_000n + 500_000n * positions,
    pool: { ...base, kind: "v4", poolId: v4PoolId(key), fee, tickSpacing },
  };
}
