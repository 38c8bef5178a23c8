import { type Address, encodeAbiParameters, getCreate2Address, type Hex, keccak256 } from "viem";
import type { PoolKey, V4Pool } from "./pool.ts";

/** V4's dynamic-fee marker in `PoolKey.fee` (LPFeeLibrary.DYNAMIC_FEE_FLAG). */
export const DYNAMIC_FEE_FLAG = 0x800000;

const sorted = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);

/** The canonical V2 pair for two tokens: CREATE2 from the factory (UniswapV2Library.pairFor). */
export function v2PairAddress(
  factory: Address,
  initCodeHash: Hex,
  tokenA: Address,
  tokenB: Address,
): Address {
  const [token0, token1] = sorted(tokenA, tokenB);
  const salt = keccak256(`0x${token0.slice(2)}${token1.slice(2)}`);
  return getCreate2Address({ from: factory, salt, bytecodeHash: initCodeHash });
}

/** The canonical V3 pool: CREATE2 from the factory over (token0, token1, fee) (PoolAddress.computeAddress). */
export function v3PoolAddress(
  factory: Address,
  initCodeHash: Hex,
  tokenA: Address,
  tokenB: Address,
  fee: number,
): Address {
  const [token0, token1] = sorted(tokenA, tokenB);
  const salt = keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }],
      [token0, token1, fee],
    ),
  );
  return getCreate2Address({ from: factory, salt, bytecodeHash: initCodeHash });
}

const POOL_KEY = [
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

/** PoolId = keccak256(abi.encode(key)) (v4-core PoolIdLibrary). */
export function v4PoolId(key: PoolKey): Hex {
  return keccak256(encodeAbiParameters(POOL_KEY, [key]));
}

/** Hooked and dynamic-fee V4 pools stay out of routing (SPEC comparison rule 10). */
export function v4Exclusion(key: PoolKey): V4Pool["excluded"] {
  // A dynamic fee always comes with a hook; name the more specific reason.
  if (key.fee === DYNAMIC_FEE_FLAG) return "dynamic-fee";
  if (BigInt(key.hooks) !== 0n) return "hooks";
  return undefined;
}

/** The slot of a pool's `Pool.State` in the PoolManager (StateLibrary._getPoolStateSlot, POOLS_SLOT = 6). */
export function v4PoolStateSlot(poolId: Hex): Hex {
  return keccak256(`${poolId}${"6".padStart(64, "0")}`);
}
