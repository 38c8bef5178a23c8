import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  zeroAddress,
} from "viem";
import { positionManagerAbi } from "../contracts/abis/PositionManager.ts";
import { POOL_KEY_ABI, type PoolKey, v4PoolId } from "../liquidity/v4/pool-key.ts";
import { seedAmounts } from "./pool-pricing.ts";
import { positionLiquidity, positionsFor } from "./position-ranges.ts";
import { amountsForLiquidity, sqrtPriceX96 } from "./price-math.ts";
import type { SeedTx, Sender } from "./sender.ts";
import type { RangeSpec, V4PoolSpec } from "./universe.ts";

/** PositionManager action codes (v4-periphery `Actions.sol`). */
const MINT_POSITION = 0x02;
const SETTLE_PAIR = 0x0d;
const SWEEP = 0x14;

/**
 * Hook addresses encode their permissions in the low 14 bits (v4-core `Hooks.sol`). The devnet places the
 * official `EmptyTestHooks` code at these addresses so hooked pools are real, liquid and swappable.
 */
export const HOOK_ADDRESSES = {
  /** BEFORE_SWAP (1 << 7) | AFTER_SWAP (1 << 6). */
  "swap-hook": "0x44440000000000000000000000000000000000c0",
  /** AFTER_INITIALIZE (1 << 12); paired with the dynamic-fee flag in the key's fee. */
  "dynamic-fee": "0x4444000000000000000000000000000000001000",
} as const satisfies Record<Exclude<V4PoolSpec["hook"], "none">, Address>;

/**
 * Initializes a V4 pool and mints its overlapping positions through the official PositionManager
 * (Permit2 pulls the tokens; native ETH is sent as value and the excess swept back), in one multicall.
 */
export async function seedV4Pool(
  sender: Sender,
  contracts: { v4PositionManager: Address },
  pool: V4PoolSpec,
  addressOf: (symbol: string) => Address,
): Promise<{ key: PoolKey; poolId: Hex; sqrtPriceX96: bigint }> {
  const [a, b] = [addressOf(pool.token0), addressOf(pool.token1)];
  const flip = BigInt(a) > BigInt(b);
  const [symbol0, symbol1] = flip ? [pool.token1, pool.token0] : [pool.token0, pool.token1];
  const key: PoolKey = {
    currency0: flip ? b : a,
    currency1: flip ? a : b,
    fee: pool.fee,
    tickSpacing: pool.tickSpacing,
    hooks: pool.hook === "none" ? zeroAddress : HOOK_ADDRESSES[pool.hook],
  };
  const { amount0, amount1 } = seedAmounts(symbol0, symbol1, pool.depthUsd, pool.dislocationBps);
  const seeded = v4SeedTx(
    { positionManager: contracts.v4PositionManager, key, ranges: pool.ranges, amount0, amount1 },
    sender.from,
  );
  await sender.send({
    ...seeded.tx,
    label: `V4 ${symbol0}/${symbol1} ${pool.fee}/${pool.tickSpacing}${pool.hook === "none" ? "" : ` ${pool.hook}`}`,
    abi: positionManagerAbi,
  });
  return { key, poolId: v4PoolId(key), sqrtPriceX96: seeded.sqrtPriceX96 };
}

/**
 * The PositionManager `multicall` that initializes a V4 pool at the price its amounts imply and mints one
 * position per range (`positionsFor`) to `recipient`: `initializePool`, then `modifyLiquidities` with
 * MINT_POSITION per range, SETTLE_PAIR, and SWEEP of the excess when currency0 is native ETH, which the
 * transaction sends as value. Returns the transaction (its value always set) and the pool's initial price.
 */
export function v4SeedTx(
  pool: {
    positionManager: Address;
    key: PoolKey;
    ranges: readonly RangeSpec[];
    amount0: bigint;
    amount1: bigint;
  },
  recipient: Address,
): { tx: SeedTx & { value: bigint }; sqrtPriceX96: bigint } {
  const { key } = pool;
  const price = sqrtPriceX96(pool.amount0, pool.amount1);
  const actions: number[] = [];
  const params: Hex[] = [];
  let value = 0n;
  for (const position of positionsFor(price, key.tickSpacing, pool.ranges, pool.amount0, pool.amount1)) {
    const liquidity = positionLiquidity(price, position);
    const needed = amountsForLiquidity(price, position.sqrtLower, position.sqrtUpper, liquidity);
    actions.push(MINT_POSITION);
    params.push(
      encodeAbiParameters(
        [
          ...POOL_KEY_ABI,
          { type: "int24" },
          { type: "int24" },
          { type: "uint256" },
          { type: "uint128" },
          { type: "uint128" },
          { type: "address" },
          { type: "bytes" },
        ],
        [
          key,
          position.tickLower,
          position.tickUpper,
          liquidity,
          needed.amount0 + 1n,
          needed.amount1 + 1n,
          recipient,
          "0x",
        ],
      ),
    );
    if (key.currency0 === zeroAddress) value += needed.amount0 + 1n;
  }
  actions.push(SETTLE_PAIR);
  params.push(
    encodeAbiParameters([{ type: "address" }, { type: "address" }], [key.currency0, key.currency1]),
  );
  if (value > 0n) {
    actions.push(SWEEP);
    params.push(encodeAbiParameters([{ type: "address" }, { type: "address" }], [zeroAddress, recipient]));
  }
  const unlockData = encodeAbiParameters(
    [{ type: "bytes" }, { type: "bytes[]" }],
    [
      encodePacked(
        actions.map(() => "uint8" as const),
        actions,
      ),
      params,
    ],
  );
  const calls = [
    encodeFunctionData({ abi: positionManagerAbi, functionName: "initializePool", args: [key, price] }),
    encodeFunctionData({
      abi: positionManagerAbi,
      functionName: "modifyLiquidities",
      args: [unlockData, 2n ** 48n],
    }),
  ];
  return {
    tx: {
      to: pool.positionManager,
      data: encodeFunctionData({ abi: positionManagerAbi, functionName: "multicall", args: [calls] }),
      value,
    },
    sqrtPriceX96: price,
  };
}
