import type { Abi, Address, ContractFunctionParameters, Hex } from "viem";

/**
 * One value to read at the pinned block: either a view call on a contract (batched through a multicall),
 * or a raw storage slot of a V4 PoolManager (batched through `extsload(bytes32[])`). `decode` turns the raw
 * answer into the value the loader wants; it may throw (a value a pool cannot hold), which fails that
 * pool only. `returnBytes` is the size of the call's ABI-encoded return value, which bounds how many
 * calls fit one deployless multicall.
 */
export type Read<T> =
  | {
      kind: "call";
      call: ContractFunctionParameters<Abi>;
      returnBytes: number;
      decode: (result: unknown) => T;
    }
  | { kind: "slot"; poolManager: Address; slot: Hex; decode: (value: Hex) => T };
