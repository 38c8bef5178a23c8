import type { PublicClient } from "viem";
import { type Address, encodeFunctionData } from "viem";
import { uniswapV2FactoryAbi } from "../contracts/abis/UniswapV2Factory.ts";
import { uniswapV2Router02Abi } from "../contracts/abis/UniswapV2Router02.ts";
import { seedAmounts } from "./pool-pricing.ts";
import type { SeedTx, Sender } from "./sender.ts";
import type { V2PoolSpec } from "./universe.ts";

/** Creates a V2 pair through the official Router02 (`addLiquidity` creates it) and returns its address. */
export async function seedV2Pool(
  client: PublicClient,
  sender: Sender,
  contracts: { v2Factory: Address; v2Router02: Address },
  pool: V2PoolSpec,
  addressOf: (symbol: string) => Address,
): Promise<Address> {
  const { amount0, amount1 } = seedAmounts(pool.token0, pool.token1, pool.depthUsd, pool.dislocationBps);
  const [tokenA, tokenB] = [addressOf(pool.token0), addressOf(pool.token1)];
  await sender.send({
    ...v2SeedTx(
      { router02: contracts.v2Router02, tokenA, tokenB, amountA: amount0, amountB: amount1 },
      sender.from,
    ),
    label: `V2 ${pool.token0}/${pool.token1}`,
    abi: uniswapV2Router02Abi,
  });
  return client.readContract({
    address: contracts.v2Factory,
    abi: uniswapV2FactoryAbi,
    functionName: "getPair",
    args: [tokenA, tokenB],
  });
}

/**
 * The Router02 `addLiquidity` call that creates a V2 pair (in either token order) and deposits both amounts
 * in full, the liquidity tokens going to `recipient`.
 */
export function v2SeedTx(
  pair: { router02: Address; tokenA: Address; tokenB: Address; amountA: bigint; amountB: bigint },
  recipient: Address,
): SeedTx {
  return {
    to: pair.router02,
    data: encodeFunctionData({
      abi: uniswapV2Router02Abi,
      functionName: "addLiquidity",
      args: [pair.tokenA, pair.tokenB, pair.amountA, pair.amountB, 0n, 0n, recipient, 2n ** 48n],
    }),
  };
}
