import { encodeErrorResult, encodeFunctionResult, RawContractError } from "viem";
import { describe, expect, it } from "vitest";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { classify, decodeExecutorOutput } from "./simulate-transaction.ts";

const outputsOf = (name: "swap" | "swapThroughAggregator") =>
  executorArtifact.abi.flatMap((item) =>
    item.type === "function" && item.name === name ? [item.outputs] : [],
  );

describe("the executor's answers, decoded", () => {
  it("reads amountOut from swap and swapThroughAggregator alike", () => {
    expect(outputsOf("swapThroughAggregator")).toEqual(outputsOf("swap"));
    expect(outputsOf("swap")).toHaveLength(1);
    const data = encodeFunctionResult({
      abi: executorArtifact.abi,
      functionName: "swapThroughAggregator",
      result: 123_456n,
    });
    expect(decodeExecutorOutput(data)).toBe(123_456n);
  });

  it("names the aggregator path's errors", () => {
    const reverted = (errorName: string, args: unknown[] = []) =>
      classify(
        new RawContractError({
          data: encodeErrorResult({ abi: executorArtifact.abi, errorName, args } as never),
        }),
        "simulation",
      );
    expect(reverted("AggregatorCallFailed")).toEqual({
      status: "failed",
      reason: "reverted",
      stage: "simulation",
      error: "AggregatorCallFailed",
    });
    expect(reverted("SettlerNotActive", [`0x${"11".repeat(20)}`])).toMatchObject({
      error: "SettlerNotActive",
    });
    expect(reverted("AggregatorBindingMismatch")).toMatchObject({ error: "AggregatorBindingMismatch" });
    expect(reverted("AggregatorLeftInput", [1n])).toMatchObject({ error: "AggregatorLeftInput" });
    expect(reverted("AggregatorDisabled", [3])).toMatchObject({ error: "AggregatorDisabled" });
    // What the recipient would have received comes with it (for the operator's warning, never a response).
    expect(reverted("InsufficientOutput", [1n, 2n])).toEqual({
      status: "failed",
      reason: "insufficient-output",
      stage: "simulation",
      error: "InsufficientOutput",
      delivered: 1n,
    });
  });
});
