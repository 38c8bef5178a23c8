import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copySnapshot } from "../../test/devnet.ts";
import { partnerKeys } from "../auth/partner-keys.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { ensureDemoPartner } from "./demo-partner.ts";
import { ensureDemoWorkspace } from "./demo-workspace.ts";
import { type Manifest, readManifest } from "./manifest.ts";

/** The demo partner keys as `junction start` makes them on the devnet, against the test snapshot's manifest. */
describe("the devnet's demo partner keys", () => {
  let dataDir: string;
  let manifestPath: string;
  let store: Store;
  beforeAll(async () => {
    dataDir = copySnapshot();
    manifestPath = join(dataDir, "devnet", "manifest.json");
    store = await createStore({ dataDir: null });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const manifest = (): Manifest => readManifest(manifestPath)!;

  it("creates a swap key and a quote-only key, listed in the manifest beside the demo workspace", async () => {
    const workspace = await ensureDemoWorkspace(store.db, manifest(), manifestPath);
    const demo = await ensureDemoPartner(store.db, { ...manifest(), demoWorkspace: workspace }, manifestPath);
    expect(manifest().demoPartner).toEqual(demo);
    expect(manifest().demoWorkspace).toEqual(workspace);
    expect(await partnerKeys.authenticate(store.db, demo.keys.swap)).toMatchObject({ swap: true });
    expect(await partnerKeys.authenticate(store.db, demo.keys.quote)).toMatchObject({ swap: false });
  });

  it("keeps the same keys on a warm restart, and replaces them once one stops authenticating", async () => {
    const before = manifest().demoPartner!;
    expect(await ensureDemoPartner(store.db, manifest(), manifestPath)).toEqual(before);

    const quote = await partnerKeys.authenticate(store.db, before.keys.quote);
    await partnerKeys.revoke(store.db, (quote as { keyId: string }).keyId);
    const after = await ensureDemoPartner(store.db, manifest(), manifestPath);
    expect(after.keys.swap).not.toBe(before.keys.swap);
    expect(after.keys.quote).not.toBe(before.keys.quote);
    expect(manifest().demoPartner).toEqual(after);
    expect(manifest().demoWorkspace).toBeDefined();

    // A new database (the old one deleted) gets new keys too.
    const fresh = await createStore({ dataDir: null });
    try {
      const recreated = await ensureDemoPartner(fresh.db, manifest(), manifestPath);
      expect(recreated.keys.swap).not.toBe(after.keys.swap);
      expect(await partnerKeys.authenticate(fresh.db, recreated.keys.swap)).toMatchObject({
        swap: true,
      });
    } finally {
      await fresh.close();
    }
  });
});
