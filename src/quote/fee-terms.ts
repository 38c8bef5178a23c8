import { type Address, type Hex, type PublicClient, zeroAddress, zeroHash } from "viem";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { isUnknownBuilder } from "../contracts/registry-errors.ts";
import { type BuilderStanding, type FeeTerms, QuoteError, type QuoteRequest } from "./quote-types.ts";

/**
 * The fees the executor will charge, read at the quote block: `feePolicy` (route fee, the builder's cap
 * and payout wallet; nothing while uncommissioned, nothing for a suspended or unknown builder) and, for a
 * builder quote, the builder's standing and default fee, both in one round trip. A builder fee above the
 * cap is refused, never silently lowered.
 */
export async function readFeeTerms(
  client: Pick<PublicClient, "readContract">,
  registry: Address,
  request: QuoteRequest,
  blockNumber: bigint,
): Promise<FeeTerms> {
  const builderId = request.builder?.id ?? zeroHash;
  const [policy, standing] = await Promise.all([
    client.readContract({
      address: registry,
      abi: builderRegistryArtifact.abi,
      functionName: "feePolicy",
      args: [request.tokenIn, request.tokenOut, builderId],
      blockNumber,
    }),
    request.builder ? builderStanding(client, registry, builderId, blockNumber) : null,
  ]);
  let builderBps = 0;
  if (standing?.registered && standing.enabled) {
    const asked = request.builder?.feeBps ?? standing.defaultFeeBps;
    if (asked > standing.maxFeeBps)
      throw new QuoteError(
        "BUILDER_FEE_ABOVE_CAP",
        `builderFeeBps ${asked} exceeds the builder's cap of ${standing.maxFeeBps}`,
      );
    builderBps = Math.min(asked, policy.builderFeeCapBps);
  } else if (standing && !standing.registered) {
    // No registry state applies: a local preview with the fee asked for (the executor would pay none).
    builderBps = request.builder?.feeBps ?? 0;
  }
  return {
    serviceFeeBps: policy.routeFeeBps,
    builderBps,
    builderRecipient: builderBps > 0 ? policy.builderRecipient : zeroAddress,
    policyVersion: Number(policy.policyVersion),
    pairFee: policy.pairFee,
    builder: standing,
  };
}

async function builderStanding(
  client: Pick<PublicClient, "readContract">,
  registry: Address,
  builderId: Hex,
  blockNumber: bigint,
): Promise<BuilderStanding> {
  try {
    const profile = await client.readContract({
      address: registry,
      abi: builderRegistryArtifact.abi,
      functionName: "builderById",
      args: [builderId],
      blockNumber,
    });
    return {
      registered: true,
      enabled: profile.enabled,
      defaultFeeBps: profile.builderFeeBps,
      maxFeeBps: profile.maxBuilderFeeBps,
    };
  } catch (error) {
    if (isUnknownBuilder(error)) return { registered: false };
    throw error;
  }
}
