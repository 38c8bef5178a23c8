import { encodeFunctionData, type Hex, isHex } from "viem";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import {
  type ExecutorSwap,
  executorTransaction,
  SwapTermsError,
  swapParams,
  type UnsignedSwapTransaction,
} from "./executor-calldata.ts";

/** Which contract `Executor.swapThroughAggregator` calls: aggregator-a's router (1) or aggregator-b's allowance holder (2). */
export type AggregatorEntry = "router" | "allowance-holder"; // 1, 2

/** The entry's number in the executor's ABI. */
export const AGGREGATOR_ENTRY_IDS = { router: 1, "allowance-holder": 2 } as const satisfies Record<
  AggregatorEntry,
  number
>;

/**
 * Everything one `Executor.swapThroughAggregator` needs: the swap's terms, and the aggregator's own calldata
 * (`data`), built with the executor as taker and recipient, for the entry's contract.
 */
export type ExecutorAggregatorSwap = Omit<ExecutorSwap, "route"> & { entry: AggregatorEntry; data: Hex };

/**
 * Builds the `Executor.swapThroughAggregator` calldata and value for `swap` (docs/aggregator-execution.md):
 * the same term checks and value as `buildExecutorSwap` (`value` = `amountIn` for native input). The executor
 * charges no service fee on it whatever `maxRouteFeeBps` says (docs/rules.md, fee rule 2); it checks the
 * allowance holder's calldata against the settler registry itself.
 */
export function buildExecutorAggregatorSwap(swap: ExecutorAggregatorSwap): UnsignedSwapTransaction {
  const params = swapParams(swap);
  const entry = AGGREGATOR_ENTRY_IDS[swap.entry];
  if (entry === undefined) throw new SwapTermsError("entry must be router or allowance-holder");
  if (!isHex(swap.data, { strict: true }) || swap.data.length < 10 || swap.data.length % 2 !== 0)
    throw new SwapTermsError("data must be the aggregator's calldata (a selector and its arguments)");
  const data = encodeFunctionData({
    abi: executorArtifact.abi,
    functionName: "swapThroughAggregator",
    args: [params, entry, swap.data],
  });
  return executorTransaction(swap, data);
}
