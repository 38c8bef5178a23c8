import type { Address, PublicClient } from "viem";
import { fromNode } from "../chain/upstream-error.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";

/** How long a treasury read is reused: governance changes it rarely, and estimates should not wait on it. */
export const TREASURY_TTL_MS = 60_000;

/**
 * The treasury a transfer's reserved fee would go to (docs/rules.md, transfer estimate rule 3): the
 * registry's `treasury()`, read at most once a minute. When a refresh fails the last value read is kept;
 * with none yet, the node's failure is 503 UPSTREAM_UNAVAILABLE.
 */
export function registryTreasury(
  client: PublicClient,
  registry: Address,
  now: () => number = Date.now,
): () => Promise<Address> {
  let cached: { treasury: Address; at: number } | undefined;
  let pending: Promise<Address> | undefined;
  const read = async () => {
    const treasury = await fromNode(() =>
      client.readContract({ address: registry, abi: builderRegistryArtifact.abi, functionName: "treasury" }),
    );
    cached = { treasury, at: now() };
    return treasury;
  };
  return async () => {
    if (cached && now() - cached.at < TREASURY_TTL_MS) return cached.treasury;
    pending ??= read().finally(() => {
      pending = undefined;
    });
    if (!cached) return pending;
    const stale = cached.treasury;
    return pending.catch(() => stale);
  };
}
