import type { AssetBook } from "../../transfers/assets.ts";
import type { BridgeProviderId } from "../../transfers/bridge-provider.ts";
import { startBridgeAStandIn } from "./bridge-a-stand-in.ts";
import { startBridgeBStandIn } from "./bridge-b-stand-in.ts";
import type { StandIn } from "./stand-in-server.ts";

export type BridgeStandIns = { urls: Partial<Record<BridgeProviderId, string>>; close: () => Promise<void> };

/**
 * On the devnet: loopback stand-ins for the bridge providers the operator has not configured, so transfer
 * estimates work offline end to end (docs/api/transfers.md).
 */
export async function startBridgeStandIns(
  book: AssetBook,
  which: readonly BridgeProviderId[],
): Promise<BridgeStandIns> {
  const started: [BridgeProviderId, StandIn][] = [];
  try {
    for (const id of which)
      started.push([id, await (id === "bridge-a" ? startBridgeAStandIn(book) : startBridgeBStandIn(book))]);
  } catch (error) {
    await Promise.all(started.map(([, standIn]) => standIn.close()));
    throw error;
  }
  return {
    urls: Object.fromEntries(started.map(([id, standIn]) => [id, standIn.url])),
    close: async () => {
      await Promise.all(started.map(([, standIn]) => standIn.close()));
    },
  };
}
