import {
  type Address,
  type Hex,
  hexToBigInt,
  maxUint160,
  numberToHex,
  type PublicClient,
  zeroAddress,
} from "viem";
import { poolManagerAbi } from "../../contracts/abis/PoolManager.ts";
import { v4PoolId, v4PoolStateSlot } from "../v4/pool-key.ts";
import type { PoolKey } from "./pool.ts";

/** At most this many V4 keys are probed for one pair (docs/rules.md, comparison rule 11). */
export const MAX_FALLBACK_V4_PROBES = 28;

/**
 * Common hook-free (fee, tickSpacing) pairs, most used first. With the native-ETH alternative for a WETH
 * leg, a pair probes at most 2 × 14 = 28 keys (docs/rules.md, comparison rule 11).
 */
export const COMMON_V4_FEES: readonly [fee: number, tickSpacing: number][] = [
  [3000, 60],
  [500, 10],
  [100, 1],
  [10000, 200],
  [50, 1],
  [10, 1],
  [2500, 50],
  [5000, 100],
  [3000, 20],
  [10000, 100],
  [500, 1],
  [100, 10],
  [1000, 20],
  [250, 5],
];

/**
 * The keys to probe for a pair: the common (fee, spacing) list for the pair as given and, when one side is
 * WETH, for native ETH in its place. Never more than 28.
 */
export function fallbackV4Keys(tokenA: Address, tokenB: Address, weth: Address): PoolKey[] {
  const pairs: [Address, Address][] = [[tokenA, tokenB]];
  const isWeth = (token: Address) => token.toLowerCase() === weth.toLowerCase();
  if (isWeth(tokenA)) pairs.push([zeroAddress, tokenB]);
  else if (isWeth(tokenB)) pairs.push([tokenA, zeroAddress]);
  const keys: PoolKey[] = [];
  for (const [a, b] of pairs) {
    const [currency0, currency1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    for (const [fee, tickSpacing] of COMMON_V4_FEES)
      keys.push({ currency0, currency1, fee, tickSpacing, hooks: zeroAddress });
  }
  return keys.slice(0, MAX_FALLBACK_V4_PROBES);
}

/**
 * Probes keys at the quote block with one `extsload` of their slot0 words; returns the initialized ones
 * (a zero sqrtPrice means the pool does not exist).
 */
export async function probeV4Keys(
  client: Pick<PublicClient, "readContract">,
  poolManager: Address,
  keys: readonly PoolKey[],
  blockNumber: bigint,
): Promise<{ key: PoolKey; poolId: Hex }[]> {
  if (keys.length === 0) return [];
  const ids = keys.map(v4PoolId);
  const words = (await client.readContract({
    address: poolManager,
    abi: poolManagerAbi,
    functionName: "extsload",
    args: [ids.map((id) => numberToHex(v4PoolStateSlot(id), { size: 32 }))],
    blockNumber,
  })) as readonly Hex[];
  return keys.flatMap((key, index) =>
    (hexToBigInt(words[index]!) & maxUint160) === 0n ? [] : [{ key, poolId: ids[index]! }],
  );
}

/**
 * Adds probed pools to the pools a search already has, never dropping an existing one and never exceeding
 * the cap (docs/rules.md, comparison rule 11: existing pools are preserved within a cap of 96).
 */
export function mergeWithinCap<T extends { ref: string }>(
  existing: readonly T[],
  probed: readonly T[],
  cap: number,
): T[] {
  const merged = [...existing];
  const seen = new Set(existing.map((pool) => pool.ref));
  for (const pool of probed) {
    if (merged.length >= cap) break;
    if (!seen.has(pool.ref)) merged.push(pool);
    seen.add(pool.ref);
  }
  return merged;
}
