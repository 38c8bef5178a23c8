import { transferKeys } from "../auth/transfer-keys.ts";
import type { Db } from "../store/schema.ts";
import { type Manifest, writeManifest } from "./manifest.ts";

export type DemoTransfers = NonNullable<Manifest["demoTransfers"]>;

/**
 * On the devnet only: a transfer-estimate customer key with the `estimates` scope, recorded in the manifest
 * (`demoTransfers.keys.estimates`) beside the bridge stand-ins' URLs (`demoTransfers.providers`), so a
 * newcomer can call `/api/transfers/v1/routes` at once (docs/rules.md, auth rule 8). The key is reused while
 * it still authenticates with that scope; recreated otherwise (e.g. after the database was deleted).
 */
export async function ensureDemoTransfers(
  db: Db,
  manifest: Manifest,
  manifestPath: string,
  providers: Record<string, string>,
): Promise<DemoTransfers> {
  const saved = manifest.demoTransfers?.keys.estimates;
  const principal = saved ? await transferKeys.authenticate(db, saved) : undefined;
  let estimates = saved;
  if (!principal || "failure" in principal || !principal.scopes.includes("estimates")) {
    // The demo key of an earlier devnet (the manifest no longer lists it) stops working.
    for (const old of await transferKeys.list(db))
      if (old.name === "demo-transfers" && old.status === "active") await transferKeys.revoke(db, old.id);
    estimates = (await transferKeys.issue(db, { name: "demo-transfers", scopes: ["estimates"] })).secret;
  }
  const demo: DemoTransfers = { keys: { estimates: estimates! }, providers };
  writeManifest(manifestPath, { ...manifest, demoTransfers: demo });
  return demo;
}
