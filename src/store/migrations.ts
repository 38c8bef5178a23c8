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
  "0002_quotes_preparations_settlements": {
    async up(db: Kysely<unknown>) {
      // Amounts are uint256: stored as numeric(78,0), read back as decimal strings (never floats).
      const uint = sql`numeric(78, 0)`;
      await db.schema
        .createTable("builder_quotes")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("builder_code", "text", (c) => c.notNull())
        .addColumn("payer", "text", (c) => c.notNull())
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("token_in", "text", (c) => c.notNull())
        .addColumn("token_out", "text", (c) => c.notNull())
        .addColumn("amount_in", uint, (c) => c.notNull())
        .addColumn("gross_amount_out", uint, (c) => c.notNull())
        .addColumn("route_fee", uint, (c) => c.notNull())
        .addColumn("builder_fee", uint, (c) => c.notNull())
        .addColumn("amount_out", uint, (c) => c.notNull())
        .addColumn("minimum_amount_out", uint, (c) => c.notNull())
        .addColumn("route_fee_bps", "integer", (c) => c.notNull())
        .addColumn("builder_fee_bps", "integer", (c) => c.notNull())
        .addColumn("policy_version", "bigint", (c) => c.notNull())
        .addColumn("policy_source", "text", (c) => c.notNull())
        .addColumn("builder_recipient", "text", (c) => c.notNull())
        .addColumn("settlement_available", "boolean", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("tx_to", "text", (c) => c.notNull())
        .addColumn("tx_data", "text", (c) => c.notNull())
        .addColumn("tx_value", uint, (c) => c.notNull())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("swap_preparations")
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("idempotency_key", "text", (c) => c.notNull())
        .addColumn("quote_id", "text", (c) => c.notNull().references("builder_quotes.id").onDelete("cascade"))
        .addColumn("request_hash", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("failure", "text")
        .addColumn("response", "jsonb")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("swap_preparations_pk", ["key_id", "idempotency_key"])
        .execute();
      await db.schema
        .createTable("settlements")
        .addColumn("quote_id", "text", (c) =>
          c.primaryKey().references("builder_quotes.id").onDelete("cascade"),
        )
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("builder_code", "text", (c) => c.notNull())
        .addColumn("token_out", "text", (c) => c.notNull())
        .addColumn("gross_amount_out", uint, (c) => c.notNull())
        .addColumn("route_fee", uint, (c) => c.notNull())
        .addColumn("builder_fee", uint, (c) => c.notNull())
        .addColumn("amount_out", uint, (c) => c.notNull())
        .addColumn("finalized_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0003_service_secrets": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("service_secrets")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0004_builder_quote_deadline": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("builder_quotes").addColumn("deadline", "timestamptz").execute();
      // Rows issued before this column carry the deadline only in their calldata: `Executor.swap(SwapParams,
      // bytes)` with a static SwapParams tuple inline, so after "0x" and the 4-byte selector the deadline is
      // its 6th 32-byte word (hex characters 331-394). Unix seconds fit its last 8 bytes.
      await sql`
        update builder_quotes
        set deadline = to_timestamp(('x' || substr(tx_data, 379, 16))::bit(64)::bigint)`.execute(db);
      await db.schema
        .alterTable("builder_quotes")
        .alterColumn("deadline", (c) => c.setNotNull())
        .execute();
    },
  },
  "0005_partner_keys": {
    async up(db: Kysely<unknown>) {
      // Partner keys belong to no workspace: the operator issues them out of band, with or without swap
      // permission. Only the SHA-256 of a key is kept, as for builder keys.
      await db.schema
        .createTable("partner_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("swap", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("expires_at", "timestamptz")
        .addColumn("revoked_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // Per-key rate counters, shaped like quota_counters; a table of their own because quota_counters
      // references workspaces, which partner keys do not have.
      await db.schema
        .createTable("partner_rate_counters")
        .addColumn("partner_key_id", "text", (c) =>
          c.notNull().references("partner_keys.id").onDelete("cascade"),
        )
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("partner_rate_counters_pk", ["partner_key_id", "bucket", "window_start"])
        .execute();
    },
  },
  "0006_transfer_keys": {
    async up(db: Kysely<unknown>) {
      // Transfer-estimate customer keys (X-Service-Api-Key): issued out of band like partner keys, scoped
      // like builder keys, hashed at rest. Provider credentials never live here: they are settings.
      await db.schema
        .createTable("transfer_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("scopes", sql`text[]`, (c) => c.notNull())
        .addColumn("expires_at", "timestamptz")
        .addColumn("revoked_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("transfer_rate_counters")
        .addColumn("transfer_key_id", "text", (c) =>
          c.notNull().references("transfer_keys.id").onDelete("cascade"),
        )
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("transfer_rate_counters_pk", ["transfer_key_id", "bucket", "window_start"])
        .execute();
    },
  },
  "0007_portal": {
    async up(db: Kysely<unknown>) {
      // The wallet a workspace is bound to: its portal owner, and the only wallet whose on-chain
      // registration of the workspace's code activates it (BuilderRegistered.owner). Lower-case hex.
      await db.schema.alterTable("workspaces").addColumn("owner", "text").execute();
      await db.schema.createIndex("workspaces_owner").on("workspaces").column("owner").execute();
      // Sign-in with Ethereum (EIP-4361): a nonce is issued once and consumed by the sign-in that names it.
      await db.schema
        .createTable("portal_nonces")
        .addColumn("nonce", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .execute();
      // Portal sessions: the cookie carries a random token, the table only its SHA-256 hash.
      await db.schema
        .createTable("portal_sessions")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0008_pool_index": {
    async up(db: Kysely<unknown>) {
      // The pool index, persisted so a restart resumes from its last block instead of rescanning the chain.
      // `pool` is the indexed pool as JSON; `discovered_at` the block it was learned at (a reorg below it
      // takes it back). One state row per index configuration (`fingerprint`: contracts and first block).
      await db.schema
        .createTable("pool_index_pools")
        .addColumn("ref", "text", (c) => c.primaryKey())
        .addColumn("discovered_at", "bigint", (c) => c.notNull())
        .addColumn("pool", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("pool_index_state")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("tips", "text", (c) => c.notNull())
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0009_settlement_index": {
    async up(db: Kysely<unknown>) {
      // The collector's finalized `Settled` events, indexed so history pages read the database for the
      // indexed range instead of eth_getLogs. `entry` is the settlement entry as JSON.
      await db.schema
        .createTable("settlement_events")
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("builder_id", "text", (c) => c.notNull())
        .addColumn("entry", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("settlement_events_pk", ["block_number", "log_index"])
        .execute();
      await db.schema
        .createIndex("settlement_events_builder")
        .on("settlement_events")
        .columns(["builder_id", "block_number", "log_index"])
        .execute();
      await db.schema
        .createTable("settlement_index_state")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("collector", "text", (c) => c.notNull())
        .addColumn("indexed_through", "bigint", (c) => c.notNull())
        .addColumn("indexed_hash", "text", (c) => c.notNull())
        .execute();
    },
  },
  "0010_indexer_lease": {
    async up(db: Kysely<unknown>) {
      // One indexer at a time among processes sharing the database: the holder of the lease follows the
      // chain and writes the indexes; the others read them. A lease the holder stops renewing expires.
      await db.schema
        .createTable("indexer_leases")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("holder", "text", (c) => c.notNull())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .execute();
      // Readers of the pool index load only what changed: each save bumps `version`, rows carry the
      // version that wrote them, and `reset_version` is the last save that took pools back (reorg, reset).
      await db.schema
        .alterTable("pool_index_state")
        .addColumn("version", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("pool_index_state")
        .addColumn("reset_version", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("pool_index_pools")
        .addColumn("version", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0011_portal_used_nonces": {
    async up(db: Kysely<unknown>) {
      // Sign-in nonces are now issued without a row (they carry their expiry and a MAC under a shared
      // secret), so issuing one writes nothing; only a nonce that opened a session is kept, until it expires.
      await db.schema.dropTable("portal_nonces").execute();
      await db.schema
        .createTable("portal_used_nonces")
        .addColumn("nonce", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .execute();
    },
  },
  "0012_one_key_table": {
    async up(db: Kysely<unknown>) {
      // One key family: builder, partner and transfer keys move into one table, told apart by `family`;
      // a partner key's swap permission becomes its `swap` scope. Ids, hashes and timestamps are copied as
      // they are, so every issued key keeps working. The per-key rate counters of partner and transfer keys
      // move into one table the same way.
      await db.schema
        .createTable("keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("family", "text", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.references("workspaces.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("scopes", sql`text[]`, (c) => c.notNull())
        .addColumn("expires_at", "timestamptz")
        .addColumn("revoked_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addCheckConstraint(
          "keys_workspace_of_builder_keys",
          sql`(family = 'builder') = (workspace_id is not null)`,
        )
        .execute();
      await db.schema.createIndex("keys_workspace").on("keys").column("workspace_id").execute();
      const columns = sql`id, family, workspace_id, name, prefix, key_hash, scopes, expires_at, revoked_at, created_at`;
      await sql`insert into keys (${columns})
        select id, 'builder', workspace_id, name, prefix, key_hash, scopes, expires_at, revoked_at, created_at
        from api_keys`.execute(db);
      await sql`insert into keys (${columns})
        select id, 'partner', null, name, prefix, key_hash,
               case when swap then array['swap'] else array[]::text[] end, expires_at, revoked_at, created_at
        from partner_keys`.execute(db);
      await sql`insert into keys (${columns})
        select id, 'transfer', null, name, prefix, key_hash, scopes, expires_at, revoked_at, created_at
        from transfer_keys`.execute(db);
      await db.schema
        .createTable("key_rate_counters")
        .addColumn("key_id", "text", (c) => c.notNull().references("keys.id").onDelete("cascade"))
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("key_rate_counters_pk", ["key_id", "bucket", "window_start"])
        .execute();
      for (const [table, column] of [
        ["partner_rate_counters", "partner_key_id"],
        ["transfer_rate_counters", "transfer_key_id"],
      ] as const)
        await sql`insert into key_rate_counters (key_id, bucket, window_start, count)
          select ${sql.ref(column)}, bucket, window_start, count from ${sql.table(table)}`.execute(db);
      for (const table of [
        "partner_rate_counters",
        "transfer_rate_counters",
        "partner_keys",
        "transfer_keys",
        "api_keys",
      ])
        await db.schema.dropTable(table).execute();
    },
  },
  "0013_preparation_response_text": {
    // A prepared swap's response is kept as the text first sent, so a replay under its Idempotency-Key is
    // byte-identical (jsonb reorders an object's keys).
    async up(db: Kysely<unknown>) {
      await sql`alter table swap_preparations alter column response type text using response::text`.execute(
        db,
      );
    },
  },
  "0014_events_and_webhooks": {
    async up(db: Kysely<unknown>) {
      // The outbox of settlement events (docs/api/builders.md, "Events and webhooks"): one row per fact,
      // its id derived from the fact so every process writing it writes the same row; `seq` orders the
      // event stream (rows are inserted under one advisory lock, so `seq` order is commit order).
      // `payload` is the JSON text delivered, kept byte for byte so every delivery signs the same body.
      await db.schema
        .createTable("events")
        .addColumn("seq", "bigserial", (c) => c.primaryKey())
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("quote_id", "text")
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex("events_workspace_seq")
        .on("events")
        .columns(["workspace_id", "seq"])
        .execute();
      await db.schema.createIndex("events_created").on("events").column("created_at").execute();
      // A workspace's webhook endpoints; the signing secret is kept to sign with (shown to its owner once),
      // and the one it replaced stays valid until `previous_secret_until` (rotation).
      await db.schema
        .createTable("webhook_endpoints")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("event_types", sql`text[]`, (c) => c.notNull())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("previous_secret", "text")
        .addColumn("previous_secret_until", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // One delivery of an event to an endpoint, written with the event (or by a test or a redelivery).
      // A process claims due deliveries (`claimed_until`) with SKIP LOCKED, so each is sent by one process
      // at a time; a claim that outlives its process expires and the delivery is sent again.
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("event_id", "text", (c) => c.notNull().references("events.id").onDelete("cascade"))
        .addColumn("endpoint_id", "text", (c) =>
          c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
        )
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("claimed_until", "timestamptz")
        .addColumn("last_attempt_at", "timestamptz")
        .addColumn("last_status", "integer")
        .addColumn("last_error", "text")
        .addColumn("last_response", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_due")
        .on("webhook_deliveries")
        .columns(["status", "next_attempt_at"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_endpoint")
        .on("webhook_deliveries")
        .columns(["endpoint_id", "created_at"])
        .execute();
      // Settlements seen mined before finality (a `settlement.confirming` was written), until finality
      // shows them kept (finalized) or replaced (reorged).
      await db.schema
        .createTable("settlement_watches")
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("quote_id", "text", (c) => c.notNull())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("entry", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("settlement_watches_pk", ["hash", "block_hash", "log_index"])
        .execute();
      await db.schema
        .createIndex("settlement_watches_open")
        .on("settlement_watches")
        .columns(["status", "block_number"])
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
