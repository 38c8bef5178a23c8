import {
  type Address,
  encodeAbiParameters,
  type Hex,
  hexToBigInt,
  keccak256,
  maxUint128,
  maxUint160,
  numberToHex,
} from "viem";
import type { Read } from "../read/read.ts";
import { v4Exclusion, v4PoolStateSlot } from "./pool-key.ts";

/** A V4 pool to read: the pool index's V4 pools fit this shape. */
export type V4PoolRef = {
  kind: "v4";
  poolId: Hex;
  key: { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address };
};

/** Whether our math prices this pool: no hook and a static fee (docs/rules.md, comparison rule 10). */
export function isHookFreeStaticFee(pool: V4PoolRef): boolean {
  return v4Exclusion(pool.key) === undefined;
}

/** StateLibrary: `pools` is slot 6 of the PoolManager; Pool.State fields sit at fixed offsets from it. */
const _POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;
const TICKS_OFFSET = 4n;
const TICK_BITMAP_OFFSET = 5n;

const slotOf = (value: bigint): Hex => numberToHex(value, { size: 32 });

/** keccak256(abi.encodePacked(key, mappingSlot)) for a 32-byte key, as Solidity hashes mapping entries. */
function mappingSlot(key: Hex, slot: Hex): Hex {
  return keccak256(`${key}${slot.slice(2)}` as Hex);
}

const int256 = (value: number): Hex => encodeAbiParameters([{ type: "int256" }], [BigInt(value)]);

/**
 * Storage slots are pure functions of the pool id and the word or tick, and hashing them was a third of a
 * quote's local CPU (a V4 pool's window is tens of words and ticks, each a keccak in JavaScript): they are
 * remembered, most recently used last, up to `SLOT_MEMO_SIZE` each. Addresses of storage, never its contents.
 */
const SLOT_MEMO_SIZE = 100_000;
const stateSlots = new Map<Hex, bigint>();
const entrySlots = new Map<string, Hex>();

function remembered<K, V>(memo: Map<K, V>, key: K, compute: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = compute();
    if (memo.size >= SLOT_MEMO_SIZE) memo.delete(memo.keys().next().value!);
  } else memo.delete(key);
  memo.set(key, value);
  return value;
}

/** `v4PoolStateSlot`, remembered per pool id. */
const poolStateSlot = (poolId: Hex): bigint => remembered(stateSlots, poolId, () => v4PoolStateSlot(poolId));

/** The slot of `key` in the mapping at `offset` of the pool's state (its bitmap words or ticks), remembered. */
const poolSlot = (poolId: Hex, offset: bigint, key: number): Hex =>
  remembered(entrySlots, `${poolId}${offset}:${key}`, () =>
    mappingSlot(int256(key), slotOf(poolStateSlot(poolId) + offset)),
  );

/**
 * The V4 reads the swap needs, as PoolManager storage slots (computed as StateLibrary does), so that one
 * `extsload(bytes32[])` serves every V4 pool of a round.
 */
export const v4Reads = {
  slot0: (
    poolManager: Address,
    poolId: Hex,
  ): Read<{ sqrtPriceX96: bigint; tick: number; protocolFee: number; lpFee: number }> => ({
    kind: "slot",
    poolManager,
    slot: slotOf(poolStateSlot(poolId)),
    decode: (value) => decodeSlot0(hexToBigInt(value)),
  }),
  liquidity: (poolManager: Address, poolId: Hex): Read<bigint> => ({
    kind: "slot",
    poolManager,
    slot: slotOf(poolStateSlot(poolId) + LIQUIDITY_OFFSET),
    decode: (value) => hexToBigInt(value) & maxUint128,
  }),
  word: (poolManager: Address, poolId: Hex, wordPos: number): Read<bigint> => ({
    kind: "slot",
    poolManager,
    slot: poolSlot(poolId, TICK_BITMAP_OFFSET, wordPos),
    decode: (value) => hexToBigInt(value),
  }),
  liquidityNet: (poolManager: Address, poolId: Hex, tick: number): Read<bigint> => ({
    kind: "slot",
    poolManager,
    slot: poolSlot(poolId, TICKS_OFFSET, tick),
    // TickInfo's first slot: liquidityGross in the low 128 bits, liquidityNet (int128) in the high 128.
    decode: (value) => BigInt.asIntN(128, hexToBigInt(value) >> 128n),
  }),
};

/** Slot0 packing (v4-core `Slot0`): sqrtPriceX96 (160) | tick (24, signed) | protocolFee (24) | lpFee (24). */
export function decodeSlot0(word: bigint) {
  return {
    sqrtPriceX96: word & maxUint160,
    tick: Number(BigInt.asIntN(24, word >> 160n)),
    protocolFee: Number((word >> 184n) & 0xffffffn),
    lpFee: Number((word >> 208n) & 0xffffffn),
  };
}
