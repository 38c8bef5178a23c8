import type { Migration, MigrationProvider } from "kysely";
import { type Kysely, sql } from "kysely";

/**
 * Schema migrations, in order, kept in code so the embedded database and a Postgres server are built by the
 * same statements. Never edit a released migration; add the next one.
 */
const MIGRATIONS: Record<string, Migration> = {
  "0001_workspaces_keys_quotas": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("workspaces")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("builder_code", "text", (c) => c.unique())
        .addColumn("activated_at", "timestamptz")
        .addColumn("plan", "text", (c) => c.notNull().defaultTo("free"))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("api_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("scopes", sql`text[]`, (c) => c.notNull())
        .addColumn("expires_at", "timestamptz")
        .addColumn("revoked_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("quota_counters")
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("quota_counters_pk", ["workspace_id", "bucket", "window_start"])
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
