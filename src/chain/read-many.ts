import type { Abi, ContractFunctionParameters, MulticallReturnType, PublicClient } from "viem";

/**
 * Many view calls at one block in one `eth_call`, through viem's deployless multicall: the aggregator's
 * creation code runs inside the call, so no Multicall3 deployment is needed on the chain. Each result
 * carries its own success or failure (`allowFailure`), so one bad pool never sinks the batch.
 */
export function readMany<const contracts extends readonly ContractFunctionParameters<Abi>[]>(
  client: Pick<PublicClient, "multicall">,
  contracts: contracts,
  blockNumber: bigint,
): Promise<MulticallReturnType<contracts, true>> {
  return client.multicall({
    contracts: contracts as never,
    blockNumber,
    allowFailure: true,
    deployless: true,
  }) as Promise<MulticallReturnType<contracts, true>>;
}
