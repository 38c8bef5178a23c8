import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../store/create-store.ts";
import { claimLease } from "../store/repositories/indexer-leases.ts";
import { createIndexerRole } from "./indexer-role.ts";

let store: Store;
beforeAll(async () => {
  store = await createStore({ dataDir: null });
});
afterAll(() => store?.close());

describe("indexer role", () => {
  it("lets one process of several index: the others wait, and take over when it releases", async () => {
    const changes: string[] = [];
    const a = createIndexerRole({ db: store.db, holder: "a", onChange: (now) => changes.push(`a:${now}`) });
    const b = createIndexerRole({ db: store.db, holder: "b", onChange: (now) => changes.push(`b:${now}`) });
    try {
      expect(await a.claim()).toBe(true);
      expect(await b.claim()).toBe(false);
      // Renewing is claiming again: still a's, still not b's.
      expect(await a.claim()).toBe(true);
      expect(await b.claim()).toBe(false);
      expect([a.isIndexer(), b.isIndexer()]).toEqual([true, false]);
      await a.release();
      expect(a.isIndexer()).toBe(false);
      expect(await a.claim()).toBe(false);
      expect(await b.claim()).toBe(true);
      expect(changes).toEqual(["a:true", "a:false", "b:true"]);
    } finally {
      await a.release();
      await b.release();
    }
  });

  it("hands an expired lease to the next claimant (a holder that died stops renewing)", async () => {
    expect(await claimLease(store.db, "test-lease", "dead", 300)).toBe(true);
    expect(await claimLease(store.db, "test-lease", "alive", 300)).toBe(false);
    await sleep(500);
    expect(await claimLease(store.db, "test-lease", "alive", 10_000)).toBe(true);
    expect(await claimLease(store.db, "test-lease", "dead", 300)).toBe(false);
  });

  it("answers false, not an error, when the database cannot be reached", async () => {
    const closed = await createStore({ dataDir: null });
    const role = createIndexerRole({ db: closed.db, holder: "x" });
    await closed.close();
    expect(await role.claim()).toBe(false);
    await role.release();
  });

  it("holds the role alone on a database only it can open: no lease row is written, and it still steps aside", async () => {
    let progressedAt = Date.now();
    const sole = createIndexerRole({
      db: store.db,
      sole: true,
      ttlMs: 1_000,
      progress: { progressedAt: () => progressedAt, nodeAnsweredAt: () => Date.now() },
    });
    try {
      expect(await sole.claim()).toBe(true);
      const rows = await store.db
        .selectFrom("indexer_leases")
        .selectAll()
        .where("name", "=", "chain-indexer")
        .execute();
      expect(rows).toEqual([]);
      // An index that stopped advancing for a lease's life gives the role up, as a shared lease would.
      progressedAt = Date.now() - 5_000;
      await sleep(1_100);
      expect(await sole.claim()).toBe(false);
    } finally {
      await sole.release();
    }
  });
});
