import { type Address, encodeAbiParameters, encodeFunctionData } from "viem";
import { standInAggregatorRouterArtifact } from "../contracts/artifacts/StandInAggregatorRouter.ts";
import { standInAllowanceHolderArtifact } from "../contracts/artifacts/StandInAllowanceHolder.ts";
import { standInSettlerArtifact } from "../contracts/artifacts/StandInSettler.ts";
import { standInSettlerRegistryArtifact } from "../contracts/artifacts/StandInSettlerRegistry.ts";
import type { UniswapDeployment } from "./deploy-uniswap.ts";
import type { Sender } from "./sender.ts";

/** The settler registry feature the firm quote's settler is looked up under (0x: taker-submitted, 2). */
export const SETTLER_FEATURE = 2;
/** The stand-ins' own fees, kept inside their quotes (bps of the output). */
export const STAND_IN_FEE_BPS = { "aggregator-a": 10, "aggregator-b": 5 } as const;

/** The aggregator stand-ins' contracts on the devnet (the manifest's `aggregators`). */
export type AggregatorContracts = {
  /** aggregator-a's router: the spender its transactions need and their `to`. */
  aggregatorARouter: Address;
  /** aggregator-b's fixed allowance holder: every firm quote's `to` and spender. */
  allowanceHolder: Address;
  /** aggregator-b's settler registry, naming the active settler. */
  settlerRegistry: Address;
  /** The settler the registry names active. */
  settler: Address;
  /** A settler the registry does not name (for the `stale-settler` fault). */
  staleSettler: Address;
  /** Where the stand-ins' fees go. */
  feeRecipient: Address;
};

/**
 * Deploys the third-party aggregator stand-ins' contracts (devnet only): aggregator-a's router, and
 * aggregator-b's allowance holder, settler registry, the active settler and a stale one. They swap through
 * the canonical Uniswap V2 router and V3 SwapRouter the devnet deployed.
 */
export async function deployAggregators(
  deployer: Sender,
  uniswap: UniswapDeployment,
  feeRecipient: Address,
): Promise<AggregatorContracts> {
  const swaps = [{ type: "address" }, { type: "address" }, { type: "address" }] as const;
  const routers = [uniswap.v2Router02, uniswap.v3SwapRouter, uniswap.weth9] as const;
  const aggregatorARouter = await deployer.deploy({
    bytecode: standInAggregatorRouterArtifact.bytecode,
    args: encodeAbiParameters(
      [...swaps, { type: "address" }, { type: "uint16" }],
      [...routers, feeRecipient, STAND_IN_FEE_BPS["aggregator-a"]],
    ),
    label: "deploy the aggregator-a stand-in router",
  });
  const allowanceHolder = await deployer.deploy({
    bytecode: standInAllowanceHolderArtifact.bytecode,
    label: "deploy the aggregator-b stand-in allowance holder",
  });
  const settlerArgs = encodeAbiParameters(
    [...swaps, { type: "address" }, { type: "address" }, { type: "uint16" }],
    [...routers, allowanceHolder, feeRecipient, STAND_IN_FEE_BPS["aggregator-b"]],
  );
  const staleSettler = await deployer.deploy({
    bytecode: standInSettlerArtifact.bytecode,
    args: settlerArgs,
    label: "deploy a stale aggregator-b settler",
  });
  const settler = await deployer.deploy({
    bytecode: standInSettlerArtifact.bytecode,
    args: settlerArgs,
    label: "deploy the aggregator-b settler",
  });
  const settlerRegistry = await deployer.deploy({
    bytecode: standInSettlerRegistryArtifact.bytecode,
    label: "deploy the aggregator-b settler registry",
  });
  await deployer.send({
    to: settlerRegistry,
    data: encodeFunctionData({
      abi: standInSettlerRegistryArtifact.abi,
      functionName: "setActive",
      args: [BigInt(SETTLER_FEATURE), settler],
    }),
    label: "activate the aggregator-b settler",
    abi: standInSettlerRegistryArtifact.abi,
  });
  return { aggregatorARouter, allowanceHolder, settlerRegistry, settler, staleSettler, feeRecipient };
}
