import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { encodeFunctionData, type Hex, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { generateApiKey, type NewApiKey } from "../auth/api-key.ts";
import { builderKeys } from "../auth/keys.ts";
import { partnerKeys } from "../auth/partner-keys.ts";
import { transferKeys } from "../auth/transfer-keys.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { migrationProvider } from "./migrations.ts";
import { pglitePool } from "./pglite-pool.ts";
import type { Database, Db } from "./schema.ts";

type Unmigrated = { db: Kysely<Database>; close: () => Promise<void> };

/** An empty database, not migrated: PGlite in memory, and a private database on DATABASE_URL's server. */
function emptyDatabases(): [string, () => Promise<Unmigrated>][] {
  const backends: [string, () => Promise<Unmigrated>][] = [
    [
      "pglite",
      async () => {
        const db = new Kysely<Database>({
          dialect: new PostgresDialect({ pool: pglitePool(await PGlite.create()) as never }),
        });
        return { db, close: () => db.destroy() };
      },
    ],
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl)
    backends.push([
      "postgres",
      async () => {
        const name = `junction_migration_${randomUUID().replaceAll("-", "")}`;
        const admin = async (statement: string) => {
          const client = new pg.Client({ connectionString: databaseUrl });
          await client.connect();
          await client.query(statement).finally(() => client.end());
        };
        await admin(`create database ${name}`);
        const url = new URL(databaseUrl);
        url.pathname = `/${name}`;
        const db = new Kysely<Database>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString() }) }),
        });
        return {
          db,
          close: async () => {
            await db.destroy();
            await admin(`drop database ${name} with (force)`);
          },
        };
      },
    ]);
  return backends;
}

const swapCalldata = (deadline: bigint): Hex =>
  encodeFunctionData({
    abi: executorArtifact.abi,
    functionName: "swap",
    args: [
      {
        tokenIn: "0x0000000000000000000000000000000000000001",
        tokenOut: "0x0000000000000000000000000000000000000002",
        amountIn: 10n ** 18n,
        minOut: 2n ** 200n,
        recipient: "0x0000000000000000000000000000000000000003",
        deadline,
        maxRouteFeeBps: 30,
        maxBuilderFeeBps: 50,
        builderId: toHex(1n, { size: 32 }),
        quoteId: toHex(2n, { size: 32 }),
        keyIdHash: toHex(3n, { size: 32 }),
      },
      "0xabcdef",
    ],
  });

/** A saved builder quote as the code before 0004 wrote it (no deadline column). */
const oldQuoteRow = (id: string, deadline: bigint) => ({
  id,
  workspace_id: "w",
  key_id: "k",
  builder_code: "old",
  payer: "0x03",
  recipient: "0x03",
  token_in: "0x01",
  token_out: "0x02",
  amount_in: 1n,
  gross_amount_out: 1n,
  route_fee: 0n,
  builder_fee: 0n,
  amount_out: 1n,
  minimum_amount_out: 1n,
  route_fee_bps: 30,
  builder_fee_bps: 50,
  policy_version: 1,
  policy_source: "onchain" as const,
  builder_recipient: "0x04",
  settlement_available: true,
  block_number: 1,
  tx_to: "0x05",
  tx_data: swapCalldata(deadline),
  tx_value: 0n,
  expires_at: new Date(),
});

describe.each(emptyDatabases())("migration 0004 on %s", (_, open) => {
  it("backfills each saved quote's deadline from its calldata, then requires one", async () => {
    const { db, close } = await open();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo("0003_service_secrets")).error).toBeUndefined();
      await db.insertInto("workspaces").values({ id: "w", name: "old" }).execute();
      // 2^33 + 7 needs more than 32 bits: the backfill reads the word's low 64 bits.
      const deadlines = [1_800_000_600n, 2n ** 33n + 7n];
      for (const [i, deadline] of deadlines.entries()) {
        const row = oldQuoteRow(`q${i}`, deadline);
        // Written as the code before 0004 wrote it: without a deadline column.
        await (db as unknown as Kysely<{ builder_quotes: typeof row }>)
          .insertInto("builder_quotes")
          .values(row)
          .execute();
      }

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom("builder_quotes").select(["id", "deadline"]).orderBy("id").execute();
      expect(rows.map((row) => BigInt(new Date(row.deadline).getTime() / 1000))).toEqual(deadlines);
      await expect(
        db
          .updateTable("builder_quotes")
          .set({ deadline: null as never })
          .where("id", "=", "q0")
          .execute(),
      ).rejects.toThrow();
    } finally {
      await close();
    }
  });
});

describe.each(emptyDatabases())("migration 0013 on %s", (_, open) => {
  it("keeps a prepared swap saved as jsonb readable, and saves new ones as the text first sent", async () => {
    const { db, close } = await open();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo("0012_one_key_table")).error).toBeUndefined();
      await db.insertInto("workspaces").values({ id: "w", name: "old" }).execute();
      await db
        .insertInto("builder_quotes")
        .values({ ...oldQuoteRow("q", 1_800_000_600n), deadline: new Date() })
        .execute();
      const preparation = (key: string, response: string) =>
        db
          .insertInto("swap_preparations")
          .values({
            key_id: "k",
            idempotency_key: key,
            quote_id: "q",
            request_hash: "h",
            status: "ready",
            response,
          })
          .execute();
      await preparation("old", JSON.stringify({ zeta: 1, a: "x" }));

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      await preparation("new", JSON.stringify({ zeta: 1, a: "x" }));
      const saved = await db
        .selectFrom("swap_preparations")
        .select(["idempotency_key", "response"])
        .orderBy("idempotency_key")
        .execute();
      // jsonb had sorted the old one's keys; the new one keeps its bytes.
      expect(saved).toEqual([
        { idempotency_key: "new", response: '{"zeta":1,"a":"x"}' },
        { idempotency_key: "old", response: '{"a": "x", "zeta": 1}' },
      ]);
    } finally {
      await close();
    }
  });
});

describe.each(emptyDatabases())("migration 0012 on %s", (_, open) => {
  it("moves every family's keys and per-key counters into one table; issued keys keep working", async () => {
    const { db, close } = await open();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo("0011_portal_used_nonces")).error).toBeUndefined();
      // Written as the code before 0012 wrote them: three key tables, two per-key counter tables.
      const old = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await old
        .insertInto("workspaces")
        .values({ id: "w", name: "old", builder_code: "old", activated_at: new Date() })
        .execute();
      const builder = generateApiKey("jct");
      const swap = generateApiKey("jpk");
      const quoteOnly = generateApiKey("jpk");
      const transfer = generateApiKey("jtk");
      const revokedAt = new Date("2026-01-01T00:00:00Z");
      const columns = (key: NewApiKey, name: string) => ({
        id: key.id,
        name,
        prefix: key.prefix,
        key_hash: key.hash,
      });
      await old
        .insertInto("api_keys")
        .values({ ...columns(builder, "b"), workspace_id: "w", scopes: ["swap", "quote"] })
        .execute();
      await old
        .insertInto("partner_keys")
        .values({ ...columns(swap, "s"), swap: true })
        .execute();
      await old
        .insertInto("partner_keys")
        .values({ ...columns(quoteOnly, "q"), swap: false, revoked_at: revokedAt })
        .execute();
      await old
        .insertInto("transfer_keys")
        .values({ ...columns(transfer, "t"), scopes: ["estimates"] })
        .execute();
      const window = new Date(Date.now() - 30_000);
      await old
        .insertInto("partner_rate_counters")
        .values({ partner_key_id: swap.id, bucket: "quote", window_start: window, count: 7 })
        .execute();
      await old
        .insertInto("transfer_rate_counters")
        .values({ transfer_key_id: transfer.id, bucket: "estimates", window_start: window, count: 3 })
        .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const upgraded = db as unknown as Db;
      expect(await builderKeys.authenticate(upgraded, builder.secret)).toEqual({
        keyId: builder.id,
        workspaceId: "w",
        scopes: ["quote", "swap"],
        builderCode: "old",
        plan: "free",
        activated: true,
      });
      expect(await partnerKeys.authenticate(upgraded, swap.secret)).toEqual({
        keyId: swap.id,
        name: "s",
        swap: true,
      });
      expect(await partnerKeys.authenticate(upgraded, quoteOnly.secret)).toEqual({ failure: "revoked" });
      expect((await partnerKeys.find(upgraded, quoteOnly.id))?.swap).toBe(false);
      expect(await transferKeys.authenticate(upgraded, transfer.secret)).toEqual({
        keyId: transfer.id,
        name: "t",
        scopes: ["estimates"],
      });
      // A key answers to its own family only.
      expect(await transferKeys.revoke(upgraded, swap.id)).toBe(false);
      const counters = await upgraded
        .selectFrom("key_rate_counters")
        .select(["key_id", "bucket", "count"])
        .orderBy("count")
        .execute();
      expect(counters).toEqual([
        { key_id: transfer.id, bucket: "estimates", count: 3 },
        { key_id: swap.id, bucket: "quote", count: 7 },
      ]);
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_name in ('api_keys', 'partner_keys', 'transfer_keys', 'partner_rate_counters', 'transfer_rate_counters')`.execute(
        db,
      );
      expect(tables.rows).toEqual([]);
    } finally {
      await close();
    }
  });
});
