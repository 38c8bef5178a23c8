import { type Address, encodeAbiParameters, type Hex, zeroAddress } from "viem";
import { executorArtifact } from "./artifacts/Executor.ts";

/**
 * The third-party contracts `Executor.swapThroughAggregator` may call (its `AggregatorTargets`): entry 1 the
 * route-then-build aggregator's router, entry 2 the firm-quote aggregator's allowance holder, asked to call
 * only the settler `settlerRegistry.ownerOf(settlerFeature)` names. A zero address disables its entry.
 */
export type ExecutorAggregatorTargets = {
  router: Address;
  allowanceHolder: Address;
  settlerRegistry: Address;
  settlerFeature: bigint;
};

/** No aggregator entry: what an executor is built with when its deployment names none. */
export const NO_AGGREGATORS: ExecutorAggregatorTargets = {
  router: zeroAddress,
  allowanceHolder: zeroAddress,
  settlerRegistry: zeroAddress,
  settlerFeature: 0n,
};

/** Everything the executor is built with; each is an immutable read back through its getter of that name. */
export type ExecutorImmutables = {
  weth9: Address;
  v2Factory: Address;
  v2PairInitCodeHash: Hex;
  v3Factory: Address;
  v3PoolInitCodeHash: Hex;
  poolManager: Address;
  registry: Address;
  aggregators: ExecutorAggregatorTargets;
};

const CONSTRUCTOR = executorArtifact.abi.find((item) => item.type === "constructor")!;

/** The ABI-encoded constructor arguments, appended to the executor's creation code. */
export function executorConstructorArgs(built: ExecutorImmutables): Hex {
  return encodeAbiParameters(CONSTRUCTOR.inputs, [
    built.weth9,
    built.v2Factory,
    built.v2PairInitCodeHash,
    built.v3Factory,
    built.v3PoolInitCodeHash,
    built.poolManager,
    built.registry,
    built.aggregators,
  ]);
}

/** The executor's getter for each aggregator target (`AggregatorTargets` field -> public immutable). */
export const AGGREGATOR_GETTERS = {
  router: "aggregatorRouter",
  allowanceHolder: "allowanceHolder",
  settlerRegistry: "settlerRegistry",
  settlerFeature: "settlerFeature",
} as const satisfies Record<keyof ExecutorAggregatorTargets, string>;
