import { type Address, encodeAbiParameters, encodeFunctionData, type Hex, keccak256, toBytes } from "viem";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import {
  type ExecutorAggregatorTargets,
  executorConstructorArgs,
} from "../contracts/executor-constructor.ts";
import type { UniswapDeployment } from "./deploy-uniswap.ts";
import type { Sender } from "./sender.ts";

/** Addresses of Junction's own contracts (the manifest's and the deployment file's `contracts`). */
export type JunctionContracts = {
  executor: Address;
  builderRegistry: Address;
  settlementCollector: Address;
};

/** The standard service fee schedule the devnet starts with (bps; never above 50). */
export const DEVNET_FEE_SCHEDULE = {
  defaultRouteFeeBps: 25,
  /** Fee cap given to newly registered builders. */
  defaultMaxBuilderFeeBps: 50,
  /** Per-pair overrides, by symbol (unordered pairs). */
  pairs: [
    { symbols: ["USDC", "USDT"], bps: 5 },
    { symbols: ["USDC", "DAI"], bps: 5 },
    { symbols: ["USDT", "DAI"], bps: 5 },
    { symbols: ["WBTC", "WETH"], bps: 15 },
  ],
} as const;

/** The builder registered on every devnet, owned by test account 2. */
export const DEMO_BUILDER = { code: "junction-demo", builderFeeBps: 10 } as const;

export type JunctionSetup = JunctionContracts & {
  governance: Address;
  treasury: Address;
  demoBuilder: { code: string; builderId: Hex; owner: Address; recipient: Address; builderFeeBps: number };
  feeSchedule: {
    defaultRouteFeeBps: number;
    defaultMaxBuilderFeeBps: number;
    pairs: { symbols: [string, string]; tokenA: Address; tokenB: Address; bps: number }[];
  };
};

/**
 * Deploys the BuilderRegistry and the Executor (built with the aggregator contracts it may call; it is also
 * the settlement collector), then, as governance, names the executor in the registry (which keeps the
 * executor's copy of the fee policy from then on), sets the standard fee schedule and commissions the
 * registry; finally the demo builder's owner registers `junction-demo`.
 */
export async function deployJunction(options: {
  deployer: Sender;
  governance: Sender;
  builderOwner: Sender;
  treasury: Address;
  uniswap: UniswapDeployment;
  aggregators: ExecutorAggregatorTargets;
  addressOf: (symbol: string) => Address;
}): Promise<JunctionSetup> {
  const { deployer, governance, builderOwner, treasury, uniswap, aggregators, addressOf } = options;
  const registryAbi = builderRegistryArtifact.abi;

  const builderRegistry = await deployer.deploy({
    bytecode: builderRegistryArtifact.bytecode,
    args: encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint16" }, { type: "uint16" }],
      [
        governance.from,
        treasury,
        DEVNET_FEE_SCHEDULE.defaultRouteFeeBps,
        DEVNET_FEE_SCHEDULE.defaultMaxBuilderFeeBps,
      ],
    ),
    label: "deploy BuilderRegistry",
  });
  const executor = await deployer.deploy({
    bytecode: executorArtifact.bytecode,
    args: executorConstructorArgs({
      weth9: uniswap.weth9,
      v2Factory: uniswap.v2Factory,
      v2PairInitCodeHash: uniswap.v2PairInitCodeHash,
      v3Factory: uniswap.v3Factory,
      v3PoolInitCodeHash: uniswap.v3PoolInitCodeHash,
      poolManager: uniswap.v4PoolManager,
      registry: builderRegistry,
      aggregators,
    }),
    label: "deploy Executor",
  });

  // The executor is the reviewed collector: it keeps the fees and emits the settlement events. The registry
  // writes its fee policy through to the executor's copy, so it names the executor before any builder or
  // pair fee is recorded.
  const settlementCollector = executor;
  await governance.send({
    to: builderRegistry,
    data: encodeFunctionData({ abi: registryAbi, functionName: "setExecutor", args: [executor] }),
    label: "name the executor in the registry",
    abi: registryAbi,
  });
  const pairs = DEVNET_FEE_SCHEDULE.pairs.map(({ symbols, bps }) => ({
    symbols: [...symbols] as [string, string],
    tokenA: addressOf(symbols[0]),
    tokenB: addressOf(symbols[1]),
    bps,
  }));
  for (const pair of pairs) {
    await governance.send({
      to: builderRegistry,
      data: encodeFunctionData({
        abi: registryAbi,
        functionName: "setPairRouteFee",
        args: [pair.tokenA, pair.tokenB, pair.bps],
      }),
      label: `route fee ${pair.symbols.join("/")}`,
      abi: registryAbi,
    });
  }
  await governance.send({
    to: builderRegistry,
    data: encodeFunctionData({ abi: registryAbi, functionName: "setCommissioned", args: [true] }),
    label: "commission the registry",
    abi: registryAbi,
  });
  await builderOwner.send({
    to: builderRegistry,
    data: encodeFunctionData({
      abi: registryAbi,
      functionName: "register",
      args: [DEMO_BUILDER.code, builderOwner.from, DEMO_BUILDER.builderFeeBps],
    }),
    label: `register ${DEMO_BUILDER.code}`,
    abi: registryAbi,
  });

  return {
    executor,
    builderRegistry,
    settlementCollector,
    governance: governance.from,
    treasury,
    demoBuilder: {
      code: DEMO_BUILDER.code,
      builderId: keccak256(toBytes(DEMO_BUILDER.code)),
      owner: builderOwner.from,
      recipient: builderOwner.from,
      builderFeeBps: DEMO_BUILDER.builderFeeBps,
    },
    feeSchedule: {
      defaultRouteFeeBps: DEVNET_FEE_SCHEDULE.defaultRouteFeeBps,
      defaultMaxBuilderFeeBps: DEVNET_FEE_SCHEDULE.defaultMaxBuilderFeeBps,
      pairs,
    },
  };
}
