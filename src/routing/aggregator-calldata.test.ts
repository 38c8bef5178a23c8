import {
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
  toBytes,
  zeroAddress,
} from "viem";
import { describe, expect, it } from "vitest";
import { builderIdOf } from "../builders/builder-code.ts";
import { CHAIN_ID } from "../chain/chain.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { buildExecutorAggregatorSwap, type ExecutorAggregatorSwap } from "./aggregator-calldata.ts";
import { SwapTermsError } from "./executor-calldata.ts";

const EXECUTOR = "0x00000000000000000000000000000000000e8ec0";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SETTLER = "0x00000000000000000000000000000000005e771e";
const EXEC = encodeFunctionData({
  abi: parseAbi(["function exec(address,address,uint256,address,bytes) payable returns (bytes)"]),
  args: [SETTLER, USDC, 5_000_000n, SETTLER, "0x12345678"],
});

const swap = (overrides: Partial<ExecutorAggregatorSwap> = {}): ExecutorAggregatorSwap => ({
  executor: EXECUTOR,
  tokenIn: USDC,
  tokenOut: zeroAddress,
  amountIn: 5_000_000n,
  minOut: 1_000_000_000_000_000n,
  recipient: RECIPIENT,
  deadline: 1_800_000_000n,
  maxRouteFeeBps: 0,
  maxBuilderFeeBps: 10,
  builderId: builderIdOf("junction-demo"),
  quoteId: keccak256(toBytes("quote")),
  entry: "allowance-holder",
  data: EXEC,
  ...overrides,
});

describe("executor aggregator calldata", () => {
  it("encodes swapThroughAggregator(params, entry, data), the aggregator's calldata passed as is", () => {
    const tx = buildExecutorAggregatorSwap(swap());
    expect(tx).toMatchObject({ to: EXECUTOR, value: 0n, chainId: CHAIN_ID });
    const { functionName, args } = decodeFunctionData({ abi: executorArtifact.abi, data: tx.data });
    expect(functionName).toBe("swapThroughAggregator");
    const [params, entry, data] = args as unknown as [Record<string, unknown>, number, Hex];
    expect(params).toMatchObject({
      tokenIn: USDC,
      tokenOut: zeroAddress,
      amountIn: 5_000_000n,
      minOut: 10n ** 15n,
      recipient: RECIPIENT,
      maxBuilderFeeBps: 10,
      builderId: keccak256(toBytes("junction-demo")),
    });
    expect(entry).toBe(2);
    expect(data).toBe(EXEC);
  });

  it("numbers the router entry 1 and sends amountIn as value for native input", () => {
    const tx = buildExecutorAggregatorSwap(
      swap({
        entry: "router",
        tokenIn: zeroAddress,
        tokenOut: USDC,
        amountIn: 10n ** 18n,
        data: "0xdeadbeef",
      }),
    );
    expect(tx.value).toBe(10n ** 18n);
    const { args } = decodeFunctionData({ abi: executorArtifact.abi, data: tx.data });
    expect(args[1]).toBe(1);
  });

  it("refuses terms the executor would refuse, an unknown entry and calldata without a selector", () => {
    const refused = (overrides: Partial<ExecutorAggregatorSwap>) => () =>
      buildExecutorAggregatorSwap(swap(overrides));
    expect(refused({ tokenOut: USDC })).toThrow(SwapTermsError);
    expect(refused({ amountIn: 0n })).toThrow(/amountIn must be between 1 and 2\^256 - 1/);
    expect(refused({ recipient: EXECUTOR })).toThrow(/the recipient must not be the executor/);
    expect(refused({ maxBuilderFeeBps: 70_000 })).toThrow(/maxBuilderFeeBps/);
    expect(refused({ entry: "settler" as never })).toThrow(/entry must be router or allowance-holder/);
    expect(refused({ data: "0x" })).toThrow(/aggregator's calldata/);
    expect(refused({ data: "0x123456789" as Hex })).toThrow(/aggregator's calldata/);
  });
});
