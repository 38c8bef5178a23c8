import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  type StateOverride,
} from "viem";
import { balanceProbeArtifact } from "../contracts/artifacts/BalanceProbe.ts";
import { classify, type Simulation } from "./simulate-transaction.ts";

/** Sends the probe call; any account works, since the probe spends its own (the caller's) balance. */
const PROBE_SENDER: Address = "0x000000000000000000000000000000000000dEaD";

export type ProviderSimulationRequest = {
  tx: { to: Address; data: Hex; value: bigint };
  /** The synthetic caller the transaction is sent from (and pays out to). */
  caller: Address;
  /** The caller's balance and allowance fixture. */
  stateOverride: StateOverride;
  /** Where the output is measured: the output token (zero address: ETH) at the caller. */
  tokenOut: Address;
  /** The output the provider promised: delivering less is `insufficient-output`. */
  promised: bigint;
  blockNumber: bigint;
  gasPrice: bigint;
};

/**
 * Runs a third-party candidate's complete transaction at the pinned block (docs/rules.md, comparison rules 3
 * and 4). Its output is not a return value we know, so it is measured: the BalanceProbe's runtime is placed
 * at the caller's address by a state override, and the probe sends the exact transaction as the caller and
 * returns the caller's balance change in the output token. Concurrently, `eth_estimateGas` of the bare
 * transaction from the caller (same fixture) gives its gas. A revert is `failed`, delivering less than
 * promised is `insufficient-output`, an RPC that does not answer makes it unverified.
 */
export async function simulateProviderTransaction(
  client: Pick<PublicClient, "call" | "estimateGas">,
  request: ProviderSimulationRequest,
): Promise<Simulation> {
  const probe = encodeFunctionData({
    abi: balanceProbeArtifact.abi,
    functionName: "probe",
    args: [request.tx.to, request.tx.data, request.tx.value, request.tokenOut, request.caller],
  });
  const [called, estimated] = await Promise.allSettled([
    client.call({
      account: PROBE_SENDER,
      to: request.caller,
      data: probe,
      blockNumber: request.blockNumber,
      // No gas price: the probe's sender holds no ETH, and the output does not depend on it (the estimate
      // below runs at the shared gas price).
      stateOverride: withCode(request.stateOverride, request.caller, balanceProbeArtifact.deployedBytecode),
    }),
    client.estimateGas({
      account: request.caller,
      to: request.tx.to,
      data: request.tx.data,
      value: request.tx.value,
      blockNumber: request.blockNumber,
      gasPrice: request.gasPrice,
      stateOverride: request.stateOverride,
    }),
  ]);
  if (called.status === "rejected") return classify(called.reason, "simulation");
  if (!called.value.data) return { status: "failed", reason: "reverted", stage: "simulation" };
  const received = decodeFunctionResult({
    abi: balanceProbeArtifact.abi,
    functionName: "probe",
    data: called.value.data,
  });
  if (received < request.promised)
    return { status: "failed", reason: "insufficient-output", stage: "simulation" };
  if (estimated.status === "rejected") return classify(estimated.reason, "gas-estimate");
  return { status: "simulated", amountOut: received, gas: estimated.value };
}

/** The fixture with `code` at `address`, merged into that address's entry when it has one. */
function withCode(stateOverride: StateOverride, address: Address, code: Hex): StateOverride {
  const own = stateOverride.find((entry) => entry.address.toLowerCase() === address.toLowerCase());
  return own
    ? stateOverride.map((entry) => (entry === own ? { ...entry, code } : entry))
    : [...stateOverride, { address, code }];
}
