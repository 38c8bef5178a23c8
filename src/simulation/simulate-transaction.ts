import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  decodeFunctionResult,
  type Hex,
  type PublicClient,
  type StateOverride,
} from "viem";
import { isTransientRpcError } from "../chain/rpc-errors.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { measureCall } from "./measure-call.ts";

/**
 * The assessment of one candidate transaction at the pinned block (docs/rules.md, comparison rules 3, 4, 13).
 */
export type Simulation =
  /**
   * `gas`: the gas the transaction uses, measured in the call (a wallet's: `eth_estimateGas`).
   * `grossAmountOut`: a third-party candidate run through the executor: its output before the builder fee,
   * measured (`amountOut` is what the recipient received).
   */
  | { status: "simulated"; amountOut: bigint; gas: bigint; grossAmountOut?: bigint }
  /**
   * It reverted: excluded from selection. `error` names the executor's custom error when it is one;
   * `delivered`, with `insufficient-output`, what the recipient would have received (never in a response).
   */
  | {
      status: "failed";
      reason: "reverted" | "insufficient-output";
      stage: "simulation";
      error?: string;
      delivered?: bigint;
    }
  /** It could not be checked: explicitly unverified, never proof of executability. */
  | {
      status: "unverified";
      reason: "unsupported-token-layout" | "rpc-unavailable";
      stage: "fixture" | "simulation" | "gas-estimate";
    };

export type SimulationRequest = {
  tx: { to: Address; data: Hex; value: bigint };
  from: Address;
  stateOverride: StateOverride;
  blockNumber: bigint;
  /** Block `blockNumber`'s timestamp: the run is in the block after it (measure-call.ts). */
  blockTimestamp?: bigint;
  /** The one explicit gas price shared by every candidate (docs/rules.md, comparison rule 12). */
  gasPrice: bigint;
  /** Reads the candidate's output from the call's return data. */
  decodeOutput: (data: Hex) => bigint;
  /**
   * Where the fees stay (the collector, in the output token), for a third-party candidate run through the
   * executor: what arrives there is the builder fee, so the output before it is measured, not inferred.
   */
  feesAt?: { token: Address; of: Address };
};

/**
 * Runs a candidate's complete calldata at the pinned block as the synthetic caller (`request.from`) in one
 * `eth_call`, with its gas measured inside the call (measure-call.ts) instead of by `eth_estimateGas`.
 * Nothing is retried and no limit is lowered (docs/rules.md, comparison rule 13): a revert is a failure, an
 * RPC that does not answer makes the candidate unverified.
 */
export async function simulateTransaction(
  client: Pick<PublicClient, "call">,
  request: SimulationRequest,
): Promise<Simulation> {
  try {
    const measured = await measureCall(client, {
      tx: request.tx,
      caller: request.from,
      stateOverride: request.stateOverride,
      blockNumber: request.blockNumber,
      ...(request.blockTimestamp !== undefined ? { blockTimestamp: request.blockTimestamp } : {}),
      gasPrice: request.gasPrice,
      ...(request.feesAt ? { output: request.feesAt } : {}),
    });
    const amountOut = request.decodeOutput(measured.result);
    return {
      status: "simulated",
      amountOut,
      gas: measured.gasUsed,
      ...(request.feesAt ? { grossAmountOut: amountOut + measured.received } : {}),
    };
  } catch (error) {
    return classify(error, "simulation");
  }
}

/**
 * Runs a transaction a real wallet will sign (`request.from` is the payer, whose own code must not be
 * replaced) with `eth_call` and, concurrently, `eth_estimateGas` with the same state, block and gas price:
 * the estimate is what the wallet's gas limit is built on.
 */
export async function simulateWalletTransaction(
  client: Pick<PublicClient, "call" | "estimateGas">,
  request: SimulationRequest,
): Promise<Simulation> {
  const call = {
    account: request.from,
    to: request.tx.to,
    data: request.tx.data,
    value: request.tx.value,
    blockNumber: request.blockNumber,
    gasPrice: request.gasPrice,
    stateOverride: request.stateOverride,
  };
  // Both at once: the same call at the same block and state; the call's verdict comes first.
  const [called, estimated] = await Promise.allSettled([client.call(call), client.estimateGas(call)]);
  if (called.status === "rejected") return classify(called.reason, "simulation");
  if (!called.value.data) return { status: "failed", reason: "reverted", stage: "simulation" };
  const amountOut = request.decodeOutput(called.value.data);
  if (estimated.status === "rejected") return classify(estimated.reason, "gas-estimate");
  return { status: "simulated", amountOut, gas: estimated.value };
}

/**
 * Decodes the executor's return value, the output the recipient received net of fees: `swap` and
 * `swapThroughAggregator` both return it as their one `uint256 amountOut`.
 */
export function decodeExecutorOutput(data: Hex): bigint {
  return decodeFunctionResult({ abi: executorArtifact.abi, functionName: "swap", data }) as bigint;
}

export function classify(error: unknown, stage: "simulation" | "gas-estimate"): Simulation {
  if (isTransientRpcError(error)) return { status: "unverified", reason: "rpc-unavailable", stage };
  const decoded = executorError(error);
  const name = decoded?.errorName;
  const delivered = name === "InsufficientOutput" ? decoded?.args?.[0] : undefined;
  return {
    status: "failed",
    reason: name === "InsufficientOutput" ? "insufficient-output" : "reverted",
    stage: "simulation",
    ...(name ? { error: name } : {}),
    ...(typeof delivered === "bigint" ? { delivered } : {}),
  };
}

/** The executor custom error, name and arguments, from the revert data (never from message text). */
function executorError(error: unknown): { errorName: string; args?: readonly unknown[] } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk(
    (e) => e instanceof ContractFunctionRevertedError,
  ) as ContractFunctionRevertedError | null;
  if (reverted?.data?.errorName) return reverted.data;
  const withData = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as {
    data?: Hex;
  } | null;
  if (!withData?.data) return undefined;
  try {
    return decodeErrorResult({ abi: executorArtifact.abi, data: withData.data });
  } catch {
    return undefined;
  }
}
