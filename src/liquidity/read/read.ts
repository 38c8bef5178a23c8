import type { Address, Hex } from "viem";

/**
 * One value to read at the pinned block: either a view call on a contract of which only some 32-byte words
 * of the return data are wanted (batched through the deployless `PoolLens`), or a raw storage slot of a V4
 * PoolManager (batched through `extsload(bytes32[])`). `decode` turns the raw answer into the value the
 * loader wants; it may throw (a value a pool cannot hold), which fails that pool only.
 */
export type Read<T> =
  | {
      kind: "view";
      target: Address;
      /** The call's calldata (selector and arguments). */
      data: Hex;
      /** Which 32-byte words of the return data to keep, by index (each below 256). */
      words: readonly number[];
      decode: (words: readonly bigint[]) => T;
    }
  | { kind: "slot"; poolManager: Address; slot: Hex; decode: (value: Hex) => T };

/** The calldata of a view taking no argument or one signed integer argument (int16, int24). */
export function viewData(selector: Hex, arg?: number): Hex {
  if (arg === undefined) return selector;
  return `${selector}${BigInt.asUintN(256, BigInt(arg)).toString(16).padStart(64, "0")}`;
}
