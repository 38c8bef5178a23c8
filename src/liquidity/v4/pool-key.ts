import { type Address, encodeAbiParameters, type Hex, keccak256 } from "viem";

/** A V4 pool key, exactly as the PoolManager hashes it (address(0) is native ETH). */
export type PoolKey = {
  currency0: Address;
  currency1: Address;
  fee: number;
  tickSpacing: number;
  hooks: Address;
};

/** The ABI tuple of `PoolKey`, for encoding keys in calldata. */
export const POOL_KEY_ABI = [
  {
    type: "tuple",
    components: [
      { name: "currency0", type: "address" },
      { name: "currency1", type: "address" },
      { name: "fee", type: "uint24" },
      { name: "tickSpacing", type: "int24" },
      { name: "hooks", type: "address" },
    ],
  },
] as const;

/** LPFeeLibrary.DYNAMIC_FEE_FLAG: the key's fee marks a hook-controlled fee. */
export const DYNAMIC_FEE_FLAG = 0x800000;

/** PoolId = keccak256(abi.encode(key)) (v4-core PoolIdLibrary). */
export function v4PoolId(key: PoolKey): Hex {
  return keccak256(encodeAbiParameters(POOL_KEY_ABI, [key]));
}

/**
 * Why routing must not use a pool (docs/rules.md, comparison rule 10: hooks and dynamic fees stay excluded),
 * or undefined for a hook-free, static-fee pool our math prices exactly. A dynamic fee always comes with a
 * hook; the more specific reason is named.
 */
export function v4Exclusion(key: PoolKey): "hooks" | "dynamic-fee" | undefined {
  if (key.fee === DYNAMIC_FEE_FLAG) return "dynamic-fee";
  if (BigInt(key.hooks) !== 0n) return "hooks";
  return undefined;
}

/** StateLibrary: `pools` is slot 6 of the PoolManager; a pool's `Pool.State` starts at this slot. */
export function v4PoolStateSlot(poolId: Hex): bigint {
  return BigInt(keccak256(`${poolId}${6n.toString(16).padStart(64, "0")}` as Hex));
}
