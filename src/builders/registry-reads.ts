import type { Address, Hex, PublicClient } from "viem";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";

const abi = builderRegistryArtifact.abi;

/** A builder as the registry holds it (IBuilderRegistry.BuilderProfile). */
export type OnChainBuilder = {
  builderId: Hex;
  code: string;
  owner: Address;
  pendingOwner: Address;
  recipient: Address;
  builderFeeBps: number;
  maxBuilderFeeBps: number;
  /** null: the standard service fee schedule applies. */
  routeFeeBps: number | null;
  /** false: suspended by governance (never paid; still readable, SPEC "States and transitions"). */
  enabled: boolean;
  version: number;
};

/**
 * Reads one builder at a pinned block (default latest): undefined while its ID is not registered. Both
 * reads name the same block, so a registration landing in between cannot split the answer.
 */
export async function readBuilder(
  client: Pick<PublicClient, "readContract" | "getBlockNumber">,
  registry: Address,
  builderId: Hex,
  blockNumber?: bigint,
): Promise<OnChainBuilder | undefined> {
  const block = blockNumber ?? (await client.getBlockNumber());
  const registered = await client.readContract({
    address: registry,
    abi,
    functionName: "isRegistered",
    args: [builderId],
    blockNumber: block,
  });
  if (!registered) return undefined;
  const profile = await client.readContract({
    address: registry,
    abi,
    functionName: "builderById",
    args: [builderId],
    blockNumber: block,
  });
  return {
    builderId,
    code: profile.code,
    owner: profile.owner,
    pendingOwner: profile.pendingOwner,
    recipient: profile.recipient,
    builderFeeBps: profile.builderFeeBps,
    maxBuilderFeeBps: profile.maxBuilderFeeBps,
    routeFeeBps: profile.hasRouteFeeOverride ? profile.routeFeeBps : null,
    enabled: profile.enabled,
    version: profile.version,
  };
}
