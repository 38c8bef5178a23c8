import type { PublicClient } from "viem";
import { UpstreamUnavailableError } from "./upstream-error.ts";

/** The one block a request reads everything at (docs/rules.md, comparison rule 3: one shared block). */
export type PinnedBlock = {
  number: bigint;
  hash: `0x${string}`;
  timestamp: bigint;
  baseFeePerGas: bigint | null;
};

/** Pins the latest block; every later read of the request passes `blockNumber: pinned.number`. */
export async function pinBlock(client: Pick<PublicClient, "getBlock">): Promise<PinnedBlock> {
  const block = await client.getBlock({ blockTag: "latest" });
  if (block.number === null || block.hash === null) throw new UpstreamUnavailableError("block-pending");
  return {
    number: block.number,
    hash: block.hash,
    timestamp: block.timestamp,
    baseFeePerGas: block.baseFeePerGas ?? null,
  };
}
