import { partnerKeys } from "../auth/partner-keys.ts";
import type { Db } from "../store/schema.ts";
import { type Manifest, writeManifest } from "./manifest.ts";

export type DemoPartner = NonNullable<Manifest["demoPartner"]>;

/**
 * On the devnet only: two partner API keys, one with swap permission and one for quotes only, recorded in
 * the manifest (`demoPartner.keys.swap`, `demoPartner.keys.quote`) so a newcomer can call the partner API at
 * once (docs/rules.md, auth rule 7). Reused across restarts while both still authenticate with the
 * permission their name says; recreated otherwise (e.g. after the database was deleted).
 */
export async function ensureDemoPartner(
  db: Db,
  manifest: Manifest,
  manifestPath: string,
): Promise<DemoPartner> {
  const saved = manifest.demoPartner;
  if (saved) {
    const [swap, quote] = await Promise.all([
      partnerKeys.authenticate(db, saved.keys.swap),
      partnerKeys.authenticate(db, saved.keys.quote),
    ]);
    if (!("failure" in swap) && swap.swap && !("failure" in quote) && !quote.swap) return saved;
  }
  // The demo keys of an earlier devnet (the manifest no longer lists them) stop working: one pair at a time.
  for (const old of await partnerKeys.list(db))
    if (old.name.startsWith("demo-partner-") && old.status === "active") await partnerKeys.revoke(db, old.id);
  const demo: DemoPartner = {
    keys: {
      swap: (await partnerKeys.issue(db, { name: "demo-partner-swap", scopes: ["swap"] })).secret,
      quote: (await partnerKeys.issue(db, { name: "demo-partner-quote", scopes: [] })).secret,
    },
  };
  writeManifest(manifestPath, { ...manifest, demoPartner: demo });
  return demo;
}
