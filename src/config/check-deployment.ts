import { type Address, type PublicClient, zeroAddress, zeroHash } from "viem";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { type Contracts, type Deployment, DeploymentFileError } from "./deployment.ts";

/** Fields of `contracts` that hold init code hashes, not addresses. */
const HASH_FIELDS = new Set(["v2PairInitCodeHash", "v3PoolInitCodeHash"]);

/**
 * Checks a deployment against its chain before the service starts: every configured contract address holds
 * code at the latest block, and the pool discovery start is not past the tip. A mismatch stops the start
 * with a DeploymentFileError naming the field, instead of a service that indexes nothing and answers every
 * quote 422 (or 503) later. One `eth_getCode` per address, in parallel.
 */
export async function checkDeployment(
  client: Pick<PublicClient, "getBytecode" | "getBlockNumber" | "readContract">,
  deployment: Deployment,
  source: string,
): Promise<void> {
  const latest = await client.getBlockNumber();
  const entries = Object.entries(deployment.contracts).filter(
    (entry): entry is [keyof Contracts, Address] => entry[1] !== undefined && !HASH_FIELDS.has(entry[0]),
  );
  const codes = await Promise.all(entries.map(([, address]) => client.getBytecode({ address })));
  const missing = entries.filter((_, i) => !codes[i] || codes[i] === "0x");
  if (missing.length > 0) {
    const names = missing.map(([field, address]) => `contracts.${field} (${address})`).join(", ");
    throw new DeploymentFileError(`${source}: no contract code at block ${latest} for ${names}`);
  }
  await checkWiring(client, deployment.contracts, source);
  for (const field of ["deploymentBlock", "poolsFromBlock"] as const) {
    if (BigInt(deployment[field]) > latest)
      throw new DeploymentFileError(
        `${source}: ${field} ${deployment[field]} is past the chain's latest block ${latest}`,
      );
  }
}

/** The executor's immutables, and the deployment field each must equal. */
const EXECUTOR_WIRING = [
  ["weth9", "weth9"],
  ["v2Factory", "v2Factory"],
  ["v2PairInitCodeHash", "v2PairInitCodeHash"],
  ["v3Factory", "v3Factory"],
  ["v3PoolInitCodeHash", "v3PoolInitCodeHash"],
  ["poolManager", "v4PoolManager"],
  ["registry", "builderRegistry"],
] as const;

/**
 * The cheap interface checks: the executor was built for exactly the Uniswap contracts and registry the file
 * names (its immutables), the reviewed collector is the executor itself (it keeps the fees and emits the
 * settlement events: docs/architecture.md, "The contracts"), the registry answers as a BuilderRegistry and
 * names this executor as the one whose copy of the fee policy it writes. A file mixing two deployments would
 * otherwise quote through one set of contracts and settle through another.
 */
async function checkWiring(
  client: Pick<PublicClient, "readContract">,
  contracts: Contracts,
  source: string,
): Promise<void> {
  const read = (address: Address, abi: readonly unknown[], functionName: string, args: unknown[] = []) =>
    client.readContract({ address, abi: abi as never, functionName, args } as never).then(
      (value) => value as unknown,
      () => undefined,
    );
  const built = await Promise.all(
    EXECUTOR_WIRING.map(([getter]) => read(contracts.executor, executorArtifact.abi, getter)),
  );
  const problems: string[] = [];
  EXECUTOR_WIRING.forEach(([getter, field], i) => {
    const value = built[i];
    // A pool source the file leaves out must be one the executor was built without (zero).
    const expected = contracts[field] ?? (HASH_FIELDS.has(field) ? zeroHash : zeroAddress);
    if (typeof value !== "string")
      problems.push(
        `contracts.executor (${contracts.executor}) does not answer ${getter}(): not a Junction executor`,
      );
    else if (value.toLowerCase() !== expected.toLowerCase())
      problems.push(
        `contracts.executor was built for ${getter} ${value}, not contracts.${field} ${contracts[field] ?? "(absent)"}`,
      );
  });
  if (problems.length === 0) {
    const treasury = await read(contracts.builderRegistry, builderRegistryArtifact.abi, "treasury");
    if (contracts.settlementCollector.toLowerCase() !== contracts.executor.toLowerCase())
      problems.push(
        `contracts.settlementCollector (${contracts.settlementCollector}) is not contracts.executor (${contracts.executor}): the executor is the reviewed collector`,
      );
    if (typeof treasury !== "string")
      problems.push(
        `contracts.builderRegistry (${contracts.builderRegistry}) does not answer treasury(): not a BuilderRegistry`,
      );
    else {
      // The executor charges by its copy of the registry's policy, which only the registry that named it
      // writes: quotes read the registry, so the two must be one pair.
      const named = await read(contracts.builderRegistry, builderRegistryArtifact.abi, "executor");
      if (typeof named !== "string" || named.toLowerCase() !== contracts.executor.toLowerCase())
        problems.push(
          `contracts.builderRegistry names executor ${typeof named === "string" ? named : "(none)"}, not contracts.executor (${contracts.executor}): governance must call setExecutor(${contracts.executor}) on the registry`,
        );
    }
  }
  if (problems.length > 0) throw new DeploymentFileError(`${source}: ${problems.join("; ")}`);
}
