import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import { encodeFunctionData, type Hex, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { migrationProvider } from "./migrations.ts";
import { pglitePool } from "./pglite-pool.ts";
import type { Database } from "./schema.ts";

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
        const row = {
          id: `q${i}`,
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
        };
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
