import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createWorkspace, markActivated } from "../auth/keys.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { workspaceActivation } from "../store/repositories/workspaces.ts";
import { reconcileWithChain } from "./chain-consistency.ts";

let devnet: TestDevnet;
let store: Store;
beforeAll(async () => {
  devnet = await startTestDevnet();
  store = await createStore({ dataDir: null });
});
afterAll(async () => {
  await store?.close();
  await devnet?.dispose();
});

describe("reconcileWithChain", () => {
  it("withdraws activations the chain does not prove and keeps the ones it does", async () => {
    const registered = devnet.manifest.junction.demoBuilder.code;
    const demo = await createWorkspace(store.db, { name: "demo", builderCode: registered });
    const lost = await createWorkspace(store.db, { name: "lost", builderCode: "lost-on-chain" });
    for (const code of [registered, "lost-on-chain"]) await markActivated(store.db, code, new Date());

    const first = await reconcileWithChain({
      client: devnet.publicClient,
      db: store.db,
      registry: devnet.manifest.contracts.builderRegistry,
    });
    expect(first).toMatchObject({ withdrawn: ["lost-on-chain"], behind: false, databaseHead: undefined });
    expect((await workspaceActivation(store.db, demo.id))?.activatedAt).toBeInstanceOf(Date);
    expect((await workspaceActivation(store.db, lost.id))?.activatedAt).toBeNull();
    // Nothing left to withdraw: a second start changes nothing.
    const again = await reconcileWithChain({
      client: devnet.publicClient,
      db: store.db,
      registry: devnet.manifest.contracts.builderRegistry,
    });
    expect(again.withdrawn).toEqual([]);
  });
});
