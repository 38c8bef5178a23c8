import { type Address, encodeAbiParameters, encodeFunctionData, getCreate2Address, keccak256 } from "viem";
import { nonfungiblePositionManagerAbi } from "../contracts/abis/NonfungiblePositionManager.ts";
import { seedAmounts } from "./pool-pricing.ts";
import { positionsFor } from "./position-ranges.ts";
import { sqrtPriceX96 } from "./price-math.ts";
import type { SeedTx, Sender } from "./sender.ts";
import type { RangeSpec, V3PoolSpec } from "./universe.ts";

/** The canonical V3 pool address: CREATE2 from the factory with the official pool init code hash. */
export function v3PoolAddress(
  factory: Address,
  initCodeHash: `0x${string}`,
  token0: Address,
  token1: Address,
  fee: number,
): Address {
  const salt = keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }],
      [token0, token1, fee],
    ),
  );
  return getCreate2Address({ from: factory, salt, bytecodeHash: initCodeHash });
}

/**
 * Creates and initializes a V3 pool and mints its overlapping positions through the official
 * NonfungiblePositionManager, in one multicall transaction.
 */
export async function seedV3Pool(
  sender: Sender,
  contracts: { v3Factory: Address; v3PositionManager: Address; v3PoolInitCodeHash: `0x${string}` },
  pool: V3PoolSpec,
  addressOf: (symbol: string) => Address,
): Promise<{ address: Address; token0: Address; token1: Address; sqrtPriceX96: bigint }> {
  const [a, b] = [addressOf(pool.token0), addressOf(pool.token1)];
  const flip = BigInt(a) > BigInt(b);
  const [symbol0, symbol1] = flip ? [pool.token1, pool.token0] : [pool.token0, pool.token1];
  const [token0, token1] = flip ? [b, a] : [a, b];
  const { amount0, amount1 } = seedAmounts(symbol0, symbol1, pool.depthUsd, pool.dislocationBps);
  const { fee, tickSpacing, ranges } = pool;
  const seeded = v3SeedTx(
    {
      positionManager: contracts.v3PositionManager,
      token0,
      token1,
      fee,
      tickSpacing,
      ranges,
      amount0,
      amount1,
    },
    sender.from,
  );
  await sender.send({
    ...seeded.tx,
    label: `V3 ${symbol0}/${symbol1} ${fee}`,
    abi: nonfungiblePositionManagerAbi,
  });
  return {
    address: v3PoolAddress(contracts.v3Factory, contracts.v3PoolInitCodeHash, token0, token1, fee),
    token0,
    token1,
    sqrtPriceX96: seeded.sqrtPriceX96,
  };
}

/**
 * The NonfungiblePositionManager `multicall` that creates a V3 pool at the price its amounts imply and mints
 * one position per range (`positionsFor`) to `recipient`. Tokens are in address order. Returns the
 * transaction and the pool's initial price.
 */
export function v3SeedTx(
  pool: {
    positionManager: Address;
    token0: Address;
    token1: Address;
    fee: number;
    tickSpacing: number;
    ranges: readonly RangeSpec[];
    amount0: bigint;
    amount1: bigint;
  },
  recipient: Address,
): { tx: SeedTx; sqrtPriceX96: bigint } {
  const { token0, token1, fee } = pool;
  const price = sqrtPriceX96(pool.amount0, pool.amount1);
  const calls = [
    encodeFunctionData({
      abi: nonfungiblePositionManagerAbi,
      functionName: "createAndInitializePoolIfNecessary",
      args: [token0, token1, fee, price],
    }),
    ...positionsFor(price, pool.tickSpacing, pool.ranges, pool.amount0, pool.amount1).map((position) =>
      encodeFunctionData({
        abi: nonfungiblePositionManagerAbi,
        functionName: "mint",
        args: [
          {
            token0,
            token1,
            fee,
            tickLower: position.tickLower,
            tickUpper: position.tickUpper,
            amount0Desired: position.amount0,
            amount1Desired: position.amount1,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient,
            deadline: 2n ** 48n,
          },
        ],
      }),
    ),
  ];
  return {
    tx: {
      to: pool.positionManager,
      data: encodeFunctionData({
        abi: nonfungiblePositionManagerAbi,
        functionName: "multicall",
        args: [calls],
      }),
    },
    sqrtPriceX96: price,
  };
}
