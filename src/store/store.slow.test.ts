import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import { createStore, type Store } from "./create-store.ts";

const backends = storeBackends();

describe.each(backends)("store on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("migrates and round-trips rows, arrays and timestamps", async () => {
    const id = randomUUID();
    await store.db
      .insertInto("workspaces")
      .values({ id, name: "acme", builder_code: `acme-${id.slice(0, 8)}` })
      .execute();
    await store.db
      .insertInto("keys")
      .values({
        id: `k-${id}`,
        family: "builder",
        workspace_id: id,
        name: "ci",
        prefix: "jk_test",
        key_hash: id,
        scopes: ["quote", "tokens"],
      })
      .execute();
    const key = await store.db
      .selectFrom("keys")
      .selectAll()
      .where("workspace_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(key.scopes).toEqual(["quote", "tokens"]);
    expect(key.created_at).toBeInstanceOf(Date);
    const workspace = await store.db
      .selectFrom("workspaces")
      .select("plan")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(workspace.plan).toBe("free");
  });

  it("counts quota increments atomically under concurrency", async () => {
    const id = randomUUID();
    await store.db.insertInto("workspaces").values({ id, name: "race" }).execute();
    const windowStart = new Date("2026-01-01T00:00:00Z");
    const increment = () =>
      store.db
        .insertInto("quota_counters")
        .values({ workspace_id: id, bucket: "quote", window_start: windowStart, count: 1 })
        .onConflict((c) =>
          c
            .columns(["workspace_id", "bucket", "window_start"])
            .doUpdateSet({ count: sql`quota_counters.count + 1` }),
        )
        .returning("count")
        .executeTakeFirstOrThrow();
    const counts = await Promise.all(Array.from({ length: 25 }, increment));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it("reports affected rows for updates and deletes", async () => {
    const id = randomUUID();
    await store.db.insertInto("workspaces").values({ id, name: "count" }).execute();
    const updated = await store.db
      .updateTable("workspaces")
      .set({ name: "counted" })
      .where("id", "=", id)
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const none = await store.db
      .updateTable("workspaces")
      .set({ name: "x" })
      .where("id", "=", "missing")
      .executeTakeFirst();
    expect(none.numUpdatedRows).toBe(0n);
    const deleted = await store.db.deleteFrom("workspaces").where("id", "=", id).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  it("rolls back a failed transaction and keeps the connection usable", async () => {
    const id = randomUUID();
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto("workspaces").values({ id, name: "tx" }).execute();
        await trx.insertInto("workspaces").values({ id, name: "duplicate" }).execute();
      }),
    ).rejects.toThrow();
    expect(await store.db.selectFrom("workspaces").select("id").where("id", "=", id).execute()).toEqual([]);
  });
});

describe("embedded store on disk", () => {
  it("persists under the data dir across reopenings", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "junction-store-"));
    try {
      const first = await createStore({ dataDir });
      await first.db.insertInto("workspaces").values({ id: "w1", name: "kept" }).execute();
      await first.close();
      const second = await createStore({ dataDir });
      expect(await second.db.selectFrom("workspaces").select("name").execute()).toEqual([{ name: "kept" }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
