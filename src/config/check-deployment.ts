import type { Address, PublicClient } from "viem";
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
  client: Pick<PublicClient, "getBytecode" | "getBlockNumber">,
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
  for (const field of ["deploymentBlock", "poolsFromBlock"] as const) {
    if (BigInt(deployment[field]) > latest)
      throw new DeploymentFileError(
        `${source}: ${field} ${deployment[field]} is past the chain's latest block ${latest}`,
      );
  }
}
