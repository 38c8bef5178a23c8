import { type Address, encodeFunctionData, type Hex, zeroAddress } from "viem";
import { swapRouterAbi } from "../../src/contracts/abis/SwapRouter.ts";
import { uniswapV2Router02Abi } from "../../src/contracts/abis/UniswapV2Router02.ts";
import type { Random } from "../../src/devnet/random.ts";
import { v4ExactInSwap } from "../../src/devnet/v4-exact-in-swap.ts";
import type { ScaleManifest, ScalePool } from "./scale-manifest.ts";
import type { Nonces, Tx } from "./send-and-mine.ts";
import { amountForUsd } from "./universe.ts";

const DEADLINE = 2n ** 48n;

/**
 * `count` swaps on pools drawn at random, each 0.01% to 1% of its pool's depth (log-uniform), in a random
 * direction, from the swapping accounts in turn: V2 through Router02 `swapExactTokensForTokens`, V3 through
 * SwapRouter `exactInputSingle`, V4 through the Universal Router (`V4_SWAP`, native ETH paid as value).
 * No minimum output: a swap is activity to follow, not a trade to protect.
 */
export function swapTxs(manifest: ScaleManifest, random: Random, count: number, nonces: Nonces): Tx[] {
  const { swappers } = manifest.accounts;
  return Array.from({ length: count }, (_, i) => {
    const pool = manifest.pools[Math.floor(random.next() * manifest.pools.length)]!;
    const [inIndex, outIndex] = random.next() < 0.5 ? [pool.a, pool.b] : [pool.b, pool.a];
    const partsPerMillion = BigInt(Math.round(10 ** (2 + 2 * random.next())));
    const amountIn =
      (amountForUsd(manifest.tokens[inIndex]!, BigInt(pool.depthUsd)) * partsPerMillion) / 1_000_000n;
    const from = swappers[i % swappers.length]!;
    const call = swapCall(
      manifest,
      pool,
      tokenAddress(manifest, pool, inIndex),
      tokenAddress(manifest, pool, outIndex),
      amountIn,
      from,
    );
    return {
      from,
      nonce: nonces.take(from),
      ...call,
      label: `${pool.kind} swap ${manifest.tokens[inIndex]!.symbol}->${manifest.tokens[outIndex]!.symbol}`,
    };
  });
}

/** A token as the pool holds it: a V4 pool holds native ETH where the universe says WETH. */
function tokenAddress(manifest: ScaleManifest, pool: ScalePool, index: number): Address {
  const address = manifest.tokens[index]!.address;
  return pool.kind === "v4" && address === manifest.uniswap.weth9 ? zeroAddress : address;
}

function swapCall(
  manifest: ScaleManifest,
  pool: ScalePool,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  recipient: Address,
): { to: Address; data: Hex; value?: bigint; gas: bigint } {
  const { uniswap } = manifest;
  if (pool.kind === "v2")
    return {
      to: uniswap.v2Router02,
      data: encodeFunctionData({
        abi: uniswapV2Router02Abi,
        functionName: "swapExactTokensForTokens",
        args: [amountIn, 0n, [tokenIn, tokenOut], recipient, DEADLINE],
      }),
      gas: 300_000n,
    };
  if (pool.kind === "v3")
    return {
      to: uniswap.v3SwapRouter,
      data: encodeFunctionData({
        abi: swapRouterAbi,
        functionName: "exactInputSingle",
        args: [
          {
            tokenIn,
            tokenOut,
            fee: pool.fee!,
            recipient,
            deadline: DEADLINE,
            amountIn,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
      gas: 800_000n,
    };
  const poolKey = {
    currency0: pool.token0,
    currency1: pool.token1,
    fee: pool.fee!,
    tickSpacing: pool.tickSpacing!,
    hooks: zeroAddress,
  };
  const zeroForOne = tokenIn === pool.token0;
  return {
    ...v4ExactInSwap({
      universalRouter: uniswap.universalRouter,
      poolKey,
      zeroForOne,
      amountIn,
      amountOutMinimum: 0n,
      deadline: DEADLINE,
    }),
    gas: 800_000n,
  };
}
