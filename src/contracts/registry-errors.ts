import { BaseError, ContractFunctionRevertedError } from "viem";

/** Whether a failed registry call reverted with `UnknownBuilder(bytes32)` (decoded from its revert data). */
export function isUnknownBuilder(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName === "UnknownBuilder";
}
