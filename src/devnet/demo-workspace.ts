import {
  type BuilderScope,
  bindOwner,
  builderKeys,
  createBuilderKey,
  createWorkspace,
  markActivated,
} from "../auth/keys.ts";
import { workspaceByBuilderCode } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { type Manifest, writeManifest } from "./manifest.ts";

/** Names of the demo keys: `demo-all`, `demo-quote`, ... */
const DEMO_KEY_PREFIX = "demo-";

const KEY_SETS = {
  all: ["quote", "swap", "tokens", "receipts"],
  quote: ["quote"],
  swap: ["swap"],
  tokens: ["tokens"],
  receipts: ["receipts"],
} as const satisfies Record<string, readonly BuilderScope[]>;

export type DemoWorkspace = NonNullable<Manifest["demoWorkspace"]>;

/**
 * On the devnet only: a workspace for the registered demo builder, activated (its code is registered on
 * chain at deploy), with keys for every scope, recorded in the manifest so a newcomer can call every
 * endpoint at once. Reused across restarts while its keys still authenticate; recreated otherwise (e.g.
 * after the database was deleted, or the devnet re-seeded), revoking the earlier demo keys.
 */
export async function ensureDemoWorkspace(
  db: Db,
  manifest: Manifest,
  manifestPath: string,
): Promise<DemoWorkspace> {
  const saved = manifest.demoWorkspace;
  if (saved) {
    const checks = await Promise.all(
      Object.values(saved.keys).map((key) => builderKeys.authenticate(db, key)),
    );
    if (checks.every((check) => !("failure" in check) && check.workspaceId === saved.workspaceId))
      return saved;
  }
  const code = manifest.junction.demoBuilder.code;
  const existing = await workspaceByBuilderCode(db, code);
  const workspace =
    existing ??
    (await createWorkspace(db, {
      name: "Junction demo",
      builderCode: code,
      owner: manifest.junction.demoBuilder.owner,
    }));
  await bindOwner(db, workspace.id, manifest.junction.demoBuilder.owner);
  await markActivated(db, code, new Date());
  // The demo keys of an earlier devnet (the manifest no longer lists them) stop working: one set at a time.
  for (const old of await builderKeys.list(db, { workspaceId: workspace.id }))
    if (old.name.startsWith(DEMO_KEY_PREFIX) && !old.revokedAt) await builderKeys.revoke(db, old.id);
  const keys = {} as DemoWorkspace["keys"];
  for (const [name, scopes] of Object.entries(KEY_SETS) as [
    keyof typeof KEY_SETS,
    readonly BuilderScope[],
  ][]) {
    keys[name] = (
      await createBuilderKey(db, {
        workspaceId: workspace.id,
        name: `${DEMO_KEY_PREFIX}${name}`,
        scopes: [...scopes],
      })
    ).secret;
  }
  const demo: DemoWorkspace = {
    workspaceId: workspace.id,
    name: workspace.name,
    builderCode: code,
    plan: existing?.plan ?? "free",
    keys,
  };
  writeManifest(manifestPath, { ...manifest, demoWorkspace: demo });
  return demo;
}
