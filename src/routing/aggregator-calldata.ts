import { encodeFunctionData, type Hex, parseAbi, zeroAddress, zeroHash } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import type { ExecutorSwap, UnsignedSwapTransaction } from "./executor-calldata.ts";

// PROVISIONAL (replaced by the aggx branch's version at merge).
export type AggregatorEntry = "router" | "allowance-holder";
export type ExecutorAggregatorSwap = Omit<ExecutorSwap, "route"> & { entry: AggregatorEntry; data: Hex };

const ABI = parseAbi([
  "struct SwapParams { address tokenIn; address tokenOut; uint256 amountIn; uint256 minOut; address recipient; uint256 deadline; uint16 maxRouteFeeBps; uint16 maxBuilderFeeBps; bytes32 builderId; bytes32 quoteId; bytes32 keyIdHash; }",
  "function swapThroughAggregator(SwapParams p, uint8 entry, bytes data) payable returns (uint256)",
]);

export function buildExecutorAggregatorSwap(swap: ExecutorAggregatorSwap): UnsignedSwapTransaction {
  const data = encodeFunctionData({
    abi: ABI,
    functionName: "swapThroughAggregator",
    args: [
      {
        tokenIn: swap.tokenIn,
        tokenOut: swap.tokenOut,
        amountIn: swap.amountIn,
        minOut: swap.minOut,
        recipient: swap.recipient,
        deadline: swap.deadline,
        maxRouteFeeBps: swap.maxRouteFeeBps,
        maxBuilderFeeBps: swap.maxBuilderFeeBps,
        builderId: swap.builderId ?? zeroHash,
        quoteId: swap.quoteId ?? zeroHash,
        keyIdHash: swap.keyIdHash ?? zeroHash,
      },
      swap.entry === "router" ? 1 : 2,
      swap.data,
    ],
  });
  return {
    to: swap.executor,
    data,
    value: swap.tokenIn === zeroAddress ? swap.amountIn : 0n,
    chainId: CHAIN_ID,
  };
}
