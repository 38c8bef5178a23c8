import type { Address, Hex, PublicClient, StateOverride } from "viem";
import { type Measured, measureCall } from "./measure-call.ts";
import { classify, type Simulation } from "./simulate-transaction.ts";

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
  /** Block `blockNumber`'s timestamp: the run is in the block after it (measure-call.ts). */
  blockTimestamp?: bigint;
  gasPrice: bigint;
};

/**
 * Runs a third-party candidate's complete transaction at the pinned block (docs/rules.md, comparison rules 3
 * and 4). Its output is not a return value we know, so it is measured by balance change: the probe runs the
 * exact transaction as the caller and returns what the caller received of the output token and the gas the
 * transaction used (measure-call.ts), in one `eth_call`. A revert is `failed`, delivering less than promised
 * is `insufficient-output`, an RPC that does not answer makes it unverified.
 */
export async function simulateProviderTransaction(
  client: Pick<PublicClient, "call">,
  request: ProviderSimulationRequest,
): Promise<Simulation> {
  let measured: Measured;
  try {
    measured = await measureCall(client, {
      tx: request.tx,
      caller: request.caller,
      stateOverride: request.stateOverride,
      output: { token: request.tokenOut, of: request.caller },
      blockNumber: request.blockNumber,
      ...(request.blockTimestamp !== undefined ? { blockTimestamp: request.blockTimestamp } : {}),
      gasPrice: request.gasPrice,
    });
  } catch (error) {
    return classify(error, "simulation");
  }
  if (measured.received < request.promised)
    return { status: "failed", reason: "insufficient-output", stage: "simulation" };
  return { status: "simulated", amountOut: measured.received, gas: measured.gasUsed };
}
