import type { Address, Hex, PublicClient } from "viem";
import { pinBlock } from "../chain/pin-block.ts";
import { readMany } from "../chain/read-many.ts";
import { UpstreamUnavailableError } from "../chain/upstream-error.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { isUnknownBuilder } from "../contracts/registry-errors.ts";

/** A builder as the registry holds it (addresses lowercase). */
export type RegistryBuilder = {
  code: string;
  owner: Address;
  /** The zero address when no ownership handover is pending. */
  pendingOwner: Address;
  recipient: Address;
  builderFeeBps: number;
  maxBuilderFeeBps: number;
  /** The builder's service fee override; null when the standard schedule applies. */
  routeFeeBps: number | null;
  enabled: boolean;
  version: number;
};

/** Registry state at one canonical block: whether it is commissioned, and the builder (null: not registered). */
export type RegistryRead = {
  registry: Address;
  block: { number: bigint; hash: Hex };
  commissioned: boolean;
  builder: RegistryBuilder | null;
};

const ATTEMPTS = 3;
const abi = builderRegistryArtifact.abi;
const lower = (address: Address) => address.toLowerCase() as Address;

/**
 * Reads a builder's registry profile and the registry's commissioned flag (docs/rules.md, profile rule 1:
 * verified canonical registry state, suspended codes included, no local fallback). Pins the latest block
 * (number and hash), reads both values at that number in one `eth_call`, then checks the block at that number
 * still has the pinned hash; a reorg in between retries on a fresh pin. An unregistered code is recognised by
 * the registry's `UnknownBuilder` custom error decoded from the revert data, never by message text. RPC
 * failures surface as viem errors.
 */
export async function readRegistryBuilder(
  client: Pick<PublicClient, "getBlock" | "multicall">,
  registry: Address,
  code: string,
): Promise<RegistryRead> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pinned = await pinBlock(client);
    const [commissioned, profile] = await readMany(
      client,
      [
        { address: registry, abi, functionName: "commissioned" },
        { address: registry, abi, functionName: "builderByCode", args: [code] },
      ],
      pinned.number,
    );
    const canonical = await client.getBlock({ blockNumber: pinned.number });
    if (canonical.hash !== pinned.hash) continue;
    if (commissioned.status === "failure") throw commissioned.error;
    let builder: RegistryBuilder | null = null;
    if (profile.status === "success") {
      const p = profile.result;
      builder = {
        code: p.code,
        owner: lower(p.owner),
        pendingOwner: lower(p.pendingOwner),
        recipient: lower(p.recipient),
        builderFeeBps: p.builderFeeBps,
        maxBuilderFeeBps: p.maxBuilderFeeBps,
        routeFeeBps: p.hasRouteFeeOverride ? p.routeFeeBps : null,
        enabled: p.enabled,
        version: p.version,
      };
    } else if (!isUnknownBuilder(profile.error)) {
      throw profile.error;
    }
    return {
      registry: lower(registry),
      block: { number: pinned.number, hash: pinned.hash },
      commissioned: commissioned.result,
      builder,
    };
  }
  // The chain tip kept moving under the read: no block stayed canonical long enough to verify it.
  throw new UpstreamUnavailableError("tip-unstable");
}
