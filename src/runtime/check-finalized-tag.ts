import type { PublicClient } from "viem";

/**
 * At start, with JUNCTION_FINALITY_CONFIRMATIONS unset: asks the node for its `finalized` block once, and
 * returns a warning when it cannot answer, since every receipt would then stay `confirming` and history
 * could not pin a snapshot (docs/rules.md, ours: finality). Undefined when the tag answers or the setting
 * is in force.
 */
export async function finalizedTagWarning(
  client: Pick<PublicClient, "getBlock">,
  finalityConfirmations: number | undefined,
): Promise<string | undefined> {
  if (finalityConfirmations !== undefined) return undefined;
  try {
    await client.getBlock({ blockTag: "finalized" });
    return undefined;
  } catch {
    return "the node does not answer the `finalized` block tag: receipts will stay `confirming` and history cannot pin a snapshot; set JUNCTION_FINALITY_CONFIRMATIONS to decide finality by confirmations instead";
  }
}
