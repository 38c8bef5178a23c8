import { type Address, decodeAbiParameters, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { MAX_PAIR_FEES } from "../cli/deploy-plan.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import {
  AGGREGATOR_GETTERS,
  type ExecutorAggregatorTargets,
  executorConstructorArgs,
} from "../contracts/executor-constructor.ts";
import { checkDeployment } from "./check-deployment.ts";
import { DeploymentSchema } from "./deployment.ts";

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

/** The devnet's deployment as an operator's file would carry it, with `change` applied. */
const deployment = (change: (file: Record<string, unknown>) => void = () => {}) => {
  const { chainId, deploymentBlock, contracts, tokens } = devnet.manifest;
  const file: Record<string, unknown> = { chainId, deploymentBlock, contracts: { ...contracts }, tokens };
  change(file);
  return DeploymentSchema.parse(file);
};

describe("checkDeployment", () => {
  it("accepts a deployment whose contracts all have code, without the optional periphery", async () => {
    await checkDeployment(devnet.publicClient, deployment(), "deployment.json");
    const minimal = deployment((file) => {
      const contracts = file.contracts as Record<string, unknown>;
      for (const field of ["permit2", "v2Router02", "v3PositionManager", "v3SwapRouter", "v3QuoterV2"])
        delete contracts[field];
      for (const field of ["v4Quoter", "universalRouter"]) delete contracts[field];
    });
    expect(minimal.poolsFromBlock).toBe("0");
    await checkDeployment(devnet.publicClient, minimal, "deployment.json");
  });

  it("the registry bounds the pairs with a fee of their own as a deploy plan does", async () => {
    const max = await devnet.publicClient.readContract({
      address: devnet.manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "MAX_PAIR_FEES",
    });
    expect(max).toBe(BigInt(MAX_PAIR_FEES));
  });

  it("refuses, naming each field, contracts without code", async () => {
    const wrong = deployment((file) => {
      const contracts = file.contracts as Record<string, unknown>;
      contracts.v4PoolManager = `0x${"42".repeat(20)}`;
      contracts.executor = `0x${"43".repeat(20)}`;
    });
    await expect(checkDeployment(devnet.publicClient, wrong, "deployment.json")).rejects.toThrow(
      /^deployment\.json: no contract code at block \d+ for contracts\.v4PoolManager \(0x4242.*\), contracts\.executor \(0x4343.*\)$/,
    );
  });

  it("refuses a file that leaves out V4 for an executor built with a PoolManager", async () => {
    const withoutV4 = deployment((file) => {
      const contracts = file.contracts as Record<string, unknown>;
      for (const field of ["v4PoolManager", "v4PositionManager", "v4StateView"]) delete contracts[field];
    });
    await expect(checkDeployment(devnet.publicClient, withoutV4, "d.json")).rejects.toThrow(
      /^d\.json: contracts\.executor was built for poolManager 0x[0-9a-fA-F]{40}, not contracts\.v4PoolManager \(absent\)$/,
    );
  });

  it("refuses a file that mixes deployments: the executor was built for other contracts", async () => {
    const mixed = deployment((file) => {
      const contracts = file.contracts as Record<string, string>;
      contracts.builderRegistry = contracts.v2Factory!;
      contracts.weth9 = contracts.v3Factory!;
    });
    const error = await checkDeployment(devnet.publicClient, mixed, "d.json").catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^d\.json: contracts\.executor was built for weth9 0x[0-9a-fA-F]{40}, not contracts\.weth9 0x.*; contracts\.executor was built for registry 0x[0-9a-fA-F]{40}, not contracts\.builderRegistry 0x/,
    );
    const notExecutor = deployment((file) => {
      const contracts = file.contracts as Record<string, string>;
      contracts.executor = contracts.builderRegistry!;
    });
    await expect(checkDeployment(devnet.publicClient, notExecutor, "d.json")).rejects.toThrow(
      /contracts\.executor \(0x[0-9a-fA-F]{40}\) does not answer weth9\(\): not a Junction executor/,
    );
  });

  it("refuses an executor the registry does not name: its copy of the fee policy is not written", async () => {
    // Built exactly like the devnet's executor, for the same registry, but never named by it.
    const { contracts } = devnet.manifest;
    const read = (functionName: string) =>
      devnet.publicClient.readContract({
        address: contracts.executor,
        abi: executorArtifact.abi,
        functionName: functionName as "weth9",
      }) as Promise<never>;
    const [weth9, v2Factory, v2PairInitCodeHash, v3Factory, v3PoolInitCodeHash, poolManager] =
      (await Promise.all(
        ["weth9", "v2Factory", "v2PairInitCodeHash", "v3Factory", "v3PoolInitCodeHash", "poolManager"].map(
          read,
        ),
      )) as unknown as [Address, Address, Hex, Address, Hex, Address];
    const aggregators = Object.fromEntries(
      await Promise.all(
        Object.entries(AGGREGATOR_GETTERS).map(async ([field, getter]) => [field, await read(getter)]),
      ),
    ) as unknown as ExecutorAggregatorTargets;
    const wallet = devnet.wallet(3);
    const hash = await wallet.deployContract({
      abi: executorArtifact.abi,
      bytecode: executorArtifact.bytecode,
      args: decodeAbiParameters(
        executorArtifact.abi.find((item) => item.type === "constructor")!.inputs,
        executorConstructorArgs({
          weth9,
          v2Factory,
          v2PairInitCodeHash,
          v3Factory,
          v3PoolInitCodeHash,
          poolManager,
          registry: contracts.builderRegistry,
          aggregators,
        }),
      ) as never,
      account: wallet.account!,
      chain: wallet.chain,
    });
    const { contractAddress } = await devnet.publicClient.waitForTransactionReceipt({ hash });
    const unnamed = deployment((file) => {
      const fields = file.contracts as Record<string, string>;
      fields.executor = contractAddress!;
      fields.settlementCollector = contractAddress!;
    });
    await expect(checkDeployment(devnet.publicClient, unnamed, "d.json")).rejects.toThrow(
      /^d\.json: contracts\.builderRegistry names executor 0x[0-9a-fA-F]{40}, not contracts\.executor \(0x[0-9a-fA-F]{40}\): governance must call setExecutor/,
    );
  });

  it("refuses a collector other than the executor", async () => {
    // The executor is the reviewed collector: it keeps the fees and emits the settlement events.
    const mixed = deployment((file) => {
      const fields = file.contracts as Record<string, string>;
      fields.settlementCollector = fields.builderRegistry!;
    });
    await expect(checkDeployment(devnet.publicClient, mixed, "d.json")).rejects.toThrow(
      /^d\.json: contracts\.settlementCollector \(0x[0-9a-fA-F]{40}\) is not contracts\.executor/,
    );
  });

  it("refuses a pool discovery start past the chain's tip", async () => {
    const ahead = deployment((file) => {
      file.poolsFromBlock = "99999999";
    });
    await expect(checkDeployment(devnet.publicClient, ahead, "deployment.json")).rejects.toThrow(
      /poolsFromBlock 99999999 is past the chain's latest block/,
    );
  });

  it("reads a file without the optional periphery and pool start", () => {
    expect(() =>
      deployment((file) => delete (file.contracts as Record<string, unknown>).permit2),
    ).not.toThrow();
    expect(() =>
      deployment((file) => delete (file.contracts as Record<string, unknown>).v4StateView),
    ).toThrow();
  });
});
