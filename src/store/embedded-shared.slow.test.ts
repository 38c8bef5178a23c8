import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore } from "./create-store.ts";
import { EmbeddedLockError, readEmbeddedLock } from "./embedded-lock.ts";
import { openEmbeddedClient, openEmbeddedShared } from "./embedded-shared.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "junction-shared-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe("one embedded database, several openers", () => {
  it("never lets two openers of the same data dir both open PGlite", async () => {
    const attempts = await Promise.allSettled([createStore({ dataDir }), createStore({ dataDir })]);
    const opened = attempts.filter((a) => a.status === "fulfilled");
    const refused = attempts.filter((a) => a.status === "rejected");
    expect(opened).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(EmbeddedLockError);
    await expect(openEmbeddedClient({ dataDir, waitMs: 300 })).rejects.toThrow(
      /is in use by another process \(pid \d+.*stop it or set DATABASE_URL/,
    );
    await expect(openEmbeddedShared({ dataDir, waitMs: 300 })).rejects.toBeInstanceOf(EmbeddedLockError);
    await (opened[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof createStore>>>).value.close();
    const again = await createStore({ dataDir });
    await again.close();
    expect(readEmbeddedLock(dataDir)).toBeUndefined();
  });

  it("serves the service's database to a client through the lock's URL; direct opening is refused", async () => {
    const service = await openEmbeddedShared({ dataDir });
    try {
      expect(readEmbeddedLock(dataDir)).toMatchObject({
        pid: process.pid,
        role: "service",
        url: service.url,
      });
      await expect(createStore({ dataDir })).rejects.toThrow(/in use by the junction service/);
      await expect(openEmbeddedShared({ dataDir, waitMs: 0 })).rejects.toBeInstanceOf(EmbeddedLockError);

      const client = await openEmbeddedClient({ dataDir });
      expect(client.via).toBe("service");
      await client.db.insertInto("workspaces").values({ id: "w-client", name: "from the CLI" }).execute();
      const seen = await service.db
        .selectFrom("workspaces")
        .select("name")
        .where("id", "=", "w-client")
        .execute();
      expect(seen).toEqual([{ name: "from the CLI" }]);
      await client.close();
    } finally {
      await service.close();
    }
    expect(readEmbeddedLock(dataDir)).toBeUndefined();
    const direct = await openEmbeddedClient({ dataDir });
    expect(direct.via).toBe("direct");
    expect(await direct.db.selectFrom("workspaces").select("id").execute()).toEqual([{ id: "w-client" }]);
    await direct.close();
  });

  it("keeps each connection's session whole: transactions and split messages do not interleave", async () => {
    const service = await openEmbeddedShared({ dataDir });
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: service.url, max: 4 }));
    try {
      await service.db.insertInto("workspaces").values({ id: "counter", name: "0" }).execute();
      // Read-modify-write in transactions from two pools and the service: any interleaving loses updates.
      const increment = async (pool: pg.Pool) => {
        const c = await pool.connect();
        try {
          await c.query("begin");
          const { rows } = await c.query("select name from workspaces where id = $1", ["counter"]);
          await c.query("update workspaces set name = $1 where id = $2", [
            String(Number(rows[0].name) + 1),
            "counter",
          ]);
          await c.query("commit");
        } finally {
          c.release();
        }
      };
      const viaService = () =>
        service.db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom("workspaces")
            .select("name")
            .where("id", "=", "counter")
            .executeTakeFirstOrThrow();
          await trx
            .updateTable("workspaces")
            .set({ name: String(Number(row.name) + 1) })
            .where("id", "=", "counter")
            .execute();
        });
      // A 4 MB parameter arrives in many socket chunks: without the session gate another connection's
      // Parse lands between this one's Parse and Bind.
      const big = "x".repeat(4_000_000);
      const large = async (i: number) => {
        const { rows } = await pools[1]!.query("select length($1::text) as n, $2::int as i", [big, i]);
        expect(rows[0]).toEqual({ n: big.length, i });
      };
      const small = async (i: number) => {
        const { rows } = await pools[0]!.query("select $1::int as x", [i]);
        expect(rows[0].x).toBe(i);
      };
      const jobs: Promise<unknown>[] = [];
      for (let i = 0; i < 12; i++) {
        jobs.push(large(i), increment(pools[0]!), increment(pools[1]!), viaService());
        for (let j = 0; j < 10; j++) jobs.push(small(i * 100 + j));
      }
      await Promise.all(jobs);
      const counter = await sql<{ name: string }>`select name from workspaces where id = 'counter'`.execute(
        service.db,
      );
      expect(counter.rows[0]!.name).toBe(String(12 * 3));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      await service.close();
    }
  });
});
