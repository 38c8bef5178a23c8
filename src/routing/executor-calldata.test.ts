import { decodeFunctionData, type Hex, keccak256, toBytes, zeroAddress, zeroHash } from "viem";
import { describe, expect, it } from "vitest";
import { builderIdOf } from "../builders/builder-code.ts";
import { CHAIN_ID } from "../chain/chain.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { buildExecutorSwap, type ExecutorSwap, SwapTermsError } from "./executor-calldata.ts";
import { decodeRoute } from "./route-encoding.ts";

const EXECUTOR = "0x00000000000000000000000000000000000e8ec0";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const swap = (overrides: Partial<ExecutorSwap> = {}): ExecutorSwap => ({
  executor: EXECUTOR,
  tokenIn: zeroAddress,
  tokenOut: USDC,
  amountIn: 10n ** 18n,
  minOut: 2_900_000_000n,
  recipient: RECIPIENT,
  deadline: 1_800_000_000n,
  maxRouteFeeBps: 25,
  maxBuilderFeeBps: 10,
  builderId: builderIdOf("junction-demo"),
  quoteId: keccak256(toBytes("quote")),
  route: {
    branches: [
      { amountIn: 10n ** 18n, hops: [{ kind: "v4", currencyOut: USDC, fee: 500, tickSpacing: 10 }] },
    ],
  },
  ...overrides,
});

describe("executor calldata", () => {
  it("encodes swap(params, route) with value = amountIn for native input", () => {
    const tx = buildExecutorSwap(swap());
    expect(tx).toMatchObject({ to: EXECUTOR, value: 10n ** 18n, chainId: CHAIN_ID });
    const { functionName, args } = decodeFunctionData({ abi: executorArtifact.abi, data: tx.data });
    expect(functionName).toBe("swap");
    const [params, route] = args;
    expect(params).toMatchObject({
      tokenIn: zeroAddress,
      tokenOut: USDC,
      amountIn: 10n ** 18n,
      minOut: 2_900_000_000n,
      recipient: RECIPIENT,
      deadline: 1_800_000_000n,
      maxRouteFeeBps: 25,
      maxBuilderFeeBps: 10,
      builderId: keccak256(toBytes("junction-demo")),
      keyIdHash: zeroHash,
    });
    expect(decodeRoute(route as Hex)).toEqual(swap().route);
  });

  it("says in bit 15 of maxRouteFeeBps that the pair has a fee of its own, and only then", () => {
    const routeFee = (overrides: Partial<ExecutorSwap>) => {
      const { args } = decodeFunctionData({
        abi: executorArtifact.abi,
        data: buildExecutorSwap(swap(overrides)).data,
      });
      return (args[0] as { maxRouteFeeBps: number }).maxRouteFeeBps;
    };
    expect(routeFee({ pairFee: true })).toBe(0x8000 | 25);
    expect(routeFee({ pairFee: false })).toBe(25);
    expect(routeFee({})).toBe(25);
  });

  it("sends no value for ERC-20 input", () => {
    const tx = buildExecutorSwap(
      swap({
        tokenIn: USDC,
        tokenOut: zeroAddress,
        amountIn: 5n,
        route: { branches: [{ amountIn: 5n, hops: [{ kind: "v3", currencyOut: zeroAddress, fee: 500 }] }] },
      }),
    );
    expect(tx.value).toBe(0n);
  });

  it.each([
    ["identical tokens", { tokenOut: zeroAddress }, "tokenIn and tokenOut must differ"],
    ["zero input", { amountIn: 0n }, "amountIn must be between 1 and 2^256 - 1"],
    ["the zero recipient", { recipient: zeroAddress }, "the recipient must not be the zero address"],
    ["the executor as recipient", { recipient: EXECUTOR }, "the recipient must not be the executor"],
    ["a fractional fee", { maxRouteFeeBps: 2.5 }, "maxRouteFeeBps must be an integer"],
    [
      "a service fee over 15 bits (bit 15 is the pair-fee flag)",
      { maxRouteFeeBps: 0x8000 },
      "between 0 and 32767",
    ],
    ["a fee above uint16", { maxBuilderFeeBps: 65_536 }, "maxBuilderFeeBps must be an integer"],
  ] as [string, Partial<ExecutorSwap>, string][])("refuses %s", (_, overrides, message) => {
    expect(() => buildExecutorSwap(swap(overrides))).toThrow(SwapTermsError);
    expect(() => buildExecutorSwap(swap(overrides))).toThrow(message);
  });

  it("refuses a route that does not match the swap", () => {
    expect(() => buildExecutorSwap(swap({ amountIn: 2n * 10n ** 18n }))).toThrow("branch amounts add up to");
  });

  it("derives builder ids as the registry does, case-sensitively", () => {
    expect(builderIdOf("junction-demo")).toBe(keccak256(toBytes("junction-demo")));
    expect(builderIdOf("Junction-Demo")).not.toBe(builderIdOf("junction-demo"));
    expect(() => builderIdOf("ab")).toThrow("invalid builder code");
    expect(() => builderIdOf("a b c")).toThrow("invalid builder code");
  });
});
