import type { Config } from "../config/config.ts";
import { type DemoPartner, ensureDemoPartner } from "../devnet/demo-partner.ts";
import { type DemoTransfers, ensureDemoTransfers } from "../devnet/demo-transfers.ts";
import { type DemoWorkspace, ensureDemoWorkspace } from "../devnet/demo-workspace.ts";
import type { Devnet } from "../devnet/devnet.ts";
import type { Manifest } from "../devnet/manifest.ts";
import { type BridgeStandIns, startBridgeStandIns } from "../devnet/stand-ins/start-bridge-stand-ins.ts";
import type { Store } from "../store/create-store.ts";
import type { AssetBook } from "../transfers/assets.ts";
import { BRIDGE_PROVIDER_IDS } from "../transfers/bridge-provider.ts";
import type { ShutdownStack } from "./shutdown-stack.ts";

/** What the devnet is seeded with, and its manifest as it now reads (each demo recorded in it). */
export type DevnetSeed = {
  manifest: Manifest;
  demoWorkspace: DemoWorkspace;
  demoPartner: DemoPartner;
  demoTransfers: DemoTransfers;
  /** Loopback stand-ins for the bridge providers the operator left unset. */
  standIns: BridgeStandIns;
};

/**
 * Start stage, on the devnet only: the demo workspace, partner keys and transfer key a newcomer calls at
 * once, and bridge stand-ins for the providers left unset. Each demo is written into the manifest as it is
 * made, so the next one keeps what the earlier ones wrote.
 */
export async function seedDevnet(
  devnet: Devnet,
  deps: { store: Store; config: Config; assets: AssetBook; shutdown: ShutdownStack },
): Promise<DevnetSeed> {
  const { db } = deps.store;
  const path = devnet.manifestPath;
  let manifest = devnet.manifest;
  const demoWorkspace = await ensureDemoWorkspace(db, manifest, path);
  manifest = { ...manifest, demoWorkspace };
  const demoPartner = await ensureDemoPartner(db, manifest, path);
  manifest = { ...manifest, demoPartner };
  const { bridgeA, bridgeB } = deps.config.transfers;
  const unset = BRIDGE_PROVIDER_IDS.filter((id) => !(id === "bridge-a" ? bridgeA : bridgeB));
  const standIns = await startBridgeStandIns(deps.assets, unset);
  deps.shutdown.defer(() => standIns.close());
  const demoTransfers = await ensureDemoTransfers(db, manifest, path, standIns.urls);
  manifest = { ...manifest, demoTransfers };
  return { manifest, demoWorkspace, demoPartner, demoTransfers, standIns };
}
