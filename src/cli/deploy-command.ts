import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { CHAIN_ID, junctionChain } from "../chain/chain.ts";
import { type Deployment, DeploymentSchema } from "../config/deployment.ts";
import { poolSources } from "../config/pool-sources.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { executorConstructorArgs } from "../contracts/executor-constructor.ts";
import { OperatorError } from "./cli-errors.ts";
import { readTokens, requireCode, verifyRuntimeCode } from "./deploy-checks.ts";
import { type DeployPlan, executorAggregators, executorImmutables } from "./deploy-plan.ts";
import { deployerKey } from "./deployer-key.ts";
import { fields, type Output } from "./output.ts";
import { startCommand } from "./start-hint.ts";

/**
 * `junction deploy`: deploys BuilderRegistry, SettlementCollector and Executor to a real chain with a
 * deployer key from the environment (`JUNCTION_DEPLOYER_KEY`) or a keystore file
 * (`--keystore`, password in `JUNCTION_KEYSTORE_PASSWORD`): never a flag that lands in shell history.
 * Then it wires them (authorises the executor, sets the fee schedule, commissions the registry, hands
 * governance and ownership over when another governance is named), checks the runtime code of each contract
 * against our artifacts, reads the starter tokens' metadata on chain, and writes the deployment file the
 * service reads (`JUNCTION_DEPLOYMENT`).
 *
 * Every transaction's hash is saved to `<out>.progress.json` before its receipt is awaited, so a rerun after
 * a failure (a crash, a dropped connection, a revert fixed since) resumes: a step whose transaction
 * succeeded is never sent again. `--dry-run` prints the plan and sends nothing.
 */
export type DeployInput = {
  plan: DeployPlan;
  out: string;
  rpcUrl: string;
  keystore?: string;
  dryRun: boolean;
};

type Step = {
  id: string;
  label: string;
  /** A contract creation when `deploy` is set (its constructor arguments may name earlier steps' contracts), else a call to `to`. */
  deploy?: () => { bytecode: Hex; args: Hex };
  to?: () => Address;
  data?: () => Hex;
};

type Progress = {
  chainId: number;
  deployer: Address;
  steps: Record<string, { hash: Hex; address?: Address; block?: string }>;
};

/** How long a transaction sent earlier (or now) may stay pending before the step is given up on. */
const RECEIPT_TIMEOUT_MS = 120_000;

export async function deployCommand(out: Output, input: DeployInput, env = process.env): Promise<void> {
  const { plan } = input;
  const key = deployerKey(input.keystore, env);
  const account = privateKeyToAccount(key);
  const chain = junctionChain(input.rpcUrl);
  const client = createPublicClient({ chain, transport: http(input.rpcUrl), cacheTime: 0 }) as PublicClient;
  const wallet = createWalletClient({ account, chain, transport: http(input.rpcUrl) });
  const chainId = await client.getChainId().catch((error: unknown) => {
    throw new OperatorError(`cannot reach ${input.rpcUrl}: ${(error as Error).message.split("\n")[0]}`);
  });
  if (chainId !== CHAIN_ID) throw new OperatorError(`the node is on chain ${chainId}, not ${CHAIN_ID}`);
  const leftOut = await requireCode(client, plan);
  if (leftOut.periphery.length > 0)
    out.note(
      `preset ${plan.uniswapPreset}: no code on this chain for ${leftOut.periphery.join(", ")}; left out of the deployment file (optional)`,
    );
  for (const { id, missing } of leftOut.sources)
    out.note(
      `preset ${plan.uniswapPreset}: no ${id} on this chain (no code for ${missing}); left out of the deployment file, so the service runs with ${id} disabled`,
    );
  const sources = poolSources(plan.uniswap);
  const enabled = sources.filter((source) => source.enabled).map((source) => source.id);
  const disabled = sources.filter((source) => !source.enabled).map((source) => source.id);

  const governance = plan.governance ?? account.address;
  const progressPath = `${input.out}.progress.json`;
  const progress = readProgress(progressPath, account.address);
  const addresses: Partial<Record<"registry" | "executor", Address>> = {};
  const at = (id: "registry" | "executor") => () => {
    const address = addresses[id] ?? progress.steps[id]?.address;
    if (!address) throw new OperatorError(`internal: ${id} is not deployed yet`);
    return address;
  };
  const steps = planSteps(plan, account.address, governance, at);

  if (input.dryRun) {
    const rows = steps.map((step) => {
      const done = progress.steps[step.id];
      return `  ${done ? "done " : "todo "} ${step.label}${done ? ` (${done.hash})` : ""}`;
    });
    out.result(
      {
        dryRun: true,
        deployer: account.address,
        governance,
        poolSources: sources,
        steps: steps.map((s) => s.id),
        progress,
      },
      [
        `deploy plan for chain ${CHAIN_ID} from ${account.address} (dry run: nothing is sent)`,
        `pool sources: ${enabled.join(", ")}${disabled.length > 0 ? ` (disabled: ${disabled.join(", ")})` : ""}`,
        `aggregator entries: ${aggregatorEntries(plan)}`,
        ...rows,
        `then: verify the runtime code, read ${plan.tokens.length} tokens, write ${input.out}`,
      ],
    );
    return;
  }

  for (const step of steps) {
    const receipt = await runStep(client, wallet, step, progress, progressPath, out);
    if (step.deploy) {
      if (!receipt.contractAddress)
        throw new OperatorError(`${step.label}: no contract address in the receipt`);
      addresses[step.id as "registry"] = receipt.contractAddress;
    }
  }
  const contracts = { registry: at("registry")(), executor: at("executor")() };
  await verifyRuntimeCode(client, contracts, plan);
  const deploymentBlock = progress.steps.registry!.block!;
  const deployment: Deployment = DeploymentSchema.parse({
    chainId: CHAIN_ID,
    deploymentBlock,
    poolsFromBlock: plan.poolsFromBlock,
    contracts: {
      ...plan.uniswap,
      executor: contracts.executor,
      builderRegistry: contracts.registry,
      // The executor is the reviewed collector: it keeps the fees and emits the settlement events.
      settlementCollector: contracts.executor,
    },
    tokens: await readTokens(client, plan.tokens),
  });
  const temporary = `${input.out}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(deployment, null, 2)}\n`);
  renameSync(temporary, input.out);
  const handover = governance.toLowerCase() !== account.address.toLowerCase();
  out.result({ deployment, out: input.out, pendingGovernance: handover ? governance : null }, [
    `deployed and verified; deployment file written to ${input.out}`,
    ...fields([
      ["executor", contracts.executor],
      ["builder registry", contracts.registry],
      ["deployment block", deploymentBlock],
      ["pools from block", plan.poolsFromBlock],
      ["tokens", deployment.tokens.map((t) => t.symbol).join(", ")],
      [
        "pool sources",
        enabled.join(", ") + (disabled.length > 0 ? ` (disabled: ${disabled.join(", ")})` : ""),
      ],
      ["aggregator entries", aggregatorEntries(plan)],
    ]),
    ...(handover ? [`next: ${governance} must call acceptGovernance() on the registry`] : []),
    `${handover ? "then" : "next"}: ${startCommand(input.rpcUrl, input.out)}`,
  ]);
}

/** Which of the executor's aggregator entries the plan enables, and with which contracts. */
function aggregatorEntries(plan: DeployPlan): string {
  const { router, allowanceHolder, settlerRegistry, settlerFeature } = plan.aggregators ?? {};
  const entries = [
    ...(router ? [`router ${router}`] : []),
    ...(allowanceHolder
      ? [`allowance holder ${allowanceHolder} (settler: ${settlerRegistry} feature ${settlerFeature})`]
      : []),
  ];
  return entries.length > 0 ? entries.join("; ") : "none (the plan names no aggregators)";
}

function planSteps(
  plan: DeployPlan,
  deployer: Address,
  governance: Address,
  at: (id: "registry" | "executor") => () => Address,
): Step[] {
  const registryAbi = builderRegistryArtifact.abi;
  const u = executorImmutables(plan.uniswap);
  const registryCall = (data: () => Hex) => ({ to: at("registry"), data });
  const steps: Step[] = [
    {
      id: "registry",
      label: "deploy BuilderRegistry",
      deploy: () => ({
        bytecode: builderRegistryArtifact.bytecode,
        // Governance starts with the deployer, who wires the registry before handing it over.
        args: encodeAbiParameters(
          [{ type: "address" }, { type: "address" }, { type: "uint16" }, { type: "uint16" }],
          [
            deployer,
            plan.treasury,
            plan.feeSchedule.defaultRouteFeeBps,
            plan.feeSchedule.defaultMaxBuilderFeeBps,
          ],
        ),
      }),
    },
    {
      id: "executor",
      label: "deploy Executor",
      deploy: () => ({
        bytecode: executorArtifact.bytecode,
        args: executorConstructorArgs({
          ...u,
          registry: at("registry")(),
          aggregators: executorAggregators(plan.aggregators),
        }),
      }),
    },
    {
      // Before any pair fee or builder: the registry writes its fee policy through to the executor's copy.
      id: "registry-executor",
      label: "name the executor in the registry",
      ...registryCall(() =>
        encodeFunctionData({ abi: registryAbi, functionName: "setExecutor", args: [at("executor")()] }),
      ),
    },
    ...plan.feeSchedule.pairs.map(
      (pair): Step => ({
        id: `pair-fee-${pair.tokenA.toLowerCase()}-${pair.tokenB.toLowerCase()}`,
        label: `service fee ${pair.bps} bps for ${pair.tokenA}/${pair.tokenB}`,
        ...registryCall(() =>
          encodeFunctionData({
            abi: registryAbi,
            functionName: "setPairRouteFee",
            args: [pair.tokenA, pair.tokenB, pair.bps],
          }),
        ),
      }),
    ),
  ];
  if (plan.commissioned)
    steps.push({
      id: "commission",
      label: "commission the registry",
      ...registryCall(() =>
        encodeFunctionData({ abi: registryAbi, functionName: "setCommissioned", args: [true] }),
      ),
    });
  if (governance.toLowerCase() !== deployer.toLowerCase()) {
    steps.push({
      id: "registry-governance",
      label: `propose ${governance} as the registry's governance`,
      ...registryCall(() =>
        encodeFunctionData({ abi: registryAbi, functionName: "transferGovernance", args: [governance] }),
      ),
    });
  }
  return steps;
}

/**
 * Runs one step unless its saved transaction succeeded: waits for a saved transaction still pending, and
 * sends again only when the saved one reverted or never reached the chain.
 */
async function runStep(
  client: PublicClient,
  wallet: ReturnType<typeof createWalletClient>,
  step: Step,
  progress: Progress,
  progressPath: string,
  out: Output,
): Promise<TransactionReceipt> {
  const saved = progress.steps[step.id];
  if (saved) {
    const receipt = await waitFor(client, saved.hash, RECEIPT_TIMEOUT_MS).catch(() => undefined);
    if (receipt?.status === "success") {
      out.note(`${step.label}: done earlier (${saved.hash})`);
      record(progress, progressPath, step.id, receipt);
      return receipt;
    }
    out.note(
      `${step.label}: the earlier transaction ${saved.hash} ${receipt ? "reverted" : "never landed"}; sending again`,
    );
  }
  out.note(`${step.label}...`);
  const tx = step.deploy
    ? { data: concat([step.deploy().bytecode, step.deploy().args]) }
    : { to: step.to!(), data: step.data!() };
  const hash = await wallet
    .sendTransaction({ account: wallet.account!, chain: wallet.chain, ...tx })
    .catch((error: unknown) => {
      // Refused before it was sent (a revert in gas estimation, no funds): nothing to resume for this step.
      const reason = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
      throw new OperatorError(
        `${step.label}: not sent (${reason.split("\n")[0]}); fix the cause and run junction deploy again to resume`,
      );
    });
  progress.steps[step.id] = { hash };
  writeProgress(progressPath, progress);
  const receipt = await waitFor(client, hash, RECEIPT_TIMEOUT_MS);
  if (receipt.status !== "success")
    throw new OperatorError(
      `${step.label} reverted in ${hash}; fix the cause and run junction deploy again to resume`,
    );
  record(progress, progressPath, step.id, receipt);
  return receipt;
}

function waitFor(client: PublicClient, hash: Hex, timeout: number) {
  return client.waitForTransactionReceipt({ hash, timeout, pollingInterval: 250 });
}

function record(progress: Progress, path: string, id: string, receipt: TransactionReceipt) {
  progress.steps[id] = {
    hash: receipt.transactionHash,
    ...(receipt.contractAddress ? { address: receipt.contractAddress } : {}),
    block: receipt.blockNumber.toString(),
  };
  writeProgress(path, progress);
}

function readProgress(path: string, deployer: Address): Progress {
  if (!existsSync(path)) return { chainId: CHAIN_ID, deployer, steps: {} };
  const saved = JSON.parse(readFileSync(path, "utf8")) as Progress;
  if (saved.deployer.toLowerCase() !== deployer.toLowerCase())
    throw new OperatorError(
      `${path} records a deployment by ${saved.deployer}; resume it with that key or delete the file`,
    );
  return saved;
}

function writeProgress(path: string, progress: Progress) {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(progress, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
