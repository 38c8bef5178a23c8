import type { ColumnType, Generated, Kysely } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A developer workspace: where keys live and quotas are counted. */
export type WorkspaceTable = {
  id: string;
  name: string;
  /** The builder code assigned to the workspace (public attribution, not a credential). */
  builder_code: string | null;
  /** Set once the builder ID's registration is confirmed on chain. */
  activated_at: Timestamp | null;
  plan: Generated<string>;
  created_at: Generated<Timestamp>;
  /**
   * The wallet the workspace is bound to (lower-case hex): its portal owner, and the only wallet whose
   * registration of the code activates it. Null for an operator's workspace not yet bound.
   */
  owner: ColumnType<string | null, string | null | undefined, string | null>;
};

/** Which surface a key opens: builder (`x-api-key`), partner (`Authorization: Bearer`), transfer estimates. */
export type KeyFamilyName = "builder" | "partner" | "transfer";

/**
 * Every API key, of every family (migration 0012): stored only as a SHA-256 hash; `prefix` is the visible
 * part a user recognises. Builder keys belong to a workspace; partner and transfer keys to none. `scopes` are
 * the family's permissions (a partner key's only one is `swap`).
 */
export type KeyTable = {
  id: string;
  family: KeyFamilyName;
  workspace_id: string | null;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string[];
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Generated<Timestamp>;
};

/** Shared counters for quotas, incremented atomically so several processes share one allowance. */
export type QuotaCounterTable = {
  workspace_id: string;
  bucket: string;
  window_start: Timestamp;
  count: number;
};

/** Shared per-key rate counters (partner and transfer keys), incremented atomically like quota_counters. */
export type KeyRateCounterTable = {
  key_id: string;
  bucket: string;
  window_start: Timestamp;
  count: number;
};

/**
 * A sign-in nonce (EIP-4361) that opened a session, kept until the nonce expires so it cannot open another.
 * Nonces are issued without a row (they carry their expiry and a MAC); only their use is stored.
 */
export type PortalUsedNonceTable = {
  nonce: string;
  expires_at: Timestamp;
};

/** A developer-portal session: the SHA-256 hash of the cookie's token, and the signed-in wallet. */
export type PortalSessionTable = {
  token_hash: string;
  address: string;
  expires_at: Timestamp;
  created_at: Generated<Timestamp>;
};

/** A pool the pool index found, as JSON, with the block it was learned at (migration 0008). */
export type PoolIndexPoolTable = {
  ref: string;
  discovered_at: Int8;
  pool: string;
  /** The save that wrote the row (migration 0010). */
  version: DefaultedInt8;
};

/** Where the persisted pool index stands: its configuration's fingerprint and its recent tips (JSON). */
export type PoolIndexStateTable = {
  id: string;
  fingerprint: string;
  tips: string;
  updated_at: DefaultedTimestamp;
  /** Bumped by every save (migration 0010). */
  version: DefaultedInt8;
  /** The last save that took pools back: a reader behind it reloads everything. */
  reset_version: DefaultedInt8;
};

/** Who indexes the chain for every process sharing the database, until when (migration 0010). */
export type IndexerLeaseTable = {
  name: string;
  holder: string;
  expires_at: DefaultedTimestamp;
};

/** A finalized `Settled` event of the collector, its settlement entry as JSON (migration 0009). */
export type SettlementEventTable = {
  block_number: Int8;
  log_index: number;
  builder_id: string;
  entry: string;
};

/** How far the settlement index reaches: a finalized block and its hash, for one collector. */
export type SettlementIndexStateTable = {
  id: string;
  collector: string;
  indexed_through: Int8;
  indexed_hash: string;
};

/**
 * An event of the outbox (migration 0014): the JSON `payload` is delivered byte for byte; `seq` orders the
 * event stream.
 */
export type EventTable = {
  seq: Generated<string>;
  id: string;
  workspace_id: string;
  type: string;
  quote_id: string | null;
  payload: string;
  created_at: DefaultedTimestamp;
};

/** A workspace's webhook endpoint, with its signing secret and, while rotating, the secret it replaced. */
export type WebhookEndpointTable = {
  id: string;
  workspace_id: string;
  url: string;
  event_types: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  created_at: DefaultedTimestamp;
};

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

/** One delivery of an event to an endpoint: its attempts and the last answer (a short excerpt at most). */
export type WebhookDeliveryTable = {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: WebhookDeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: DefaultedTimestamp;
  claimed_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  last_response: string | null;
  created_at: DefaultedTimestamp;
};

/** A settlement seen mined before finality, until finality keeps or replaces its block. */
export type SettlementWatchTable = {
  hash: string;
  block_hash: string;
  block_number: Int8;
  log_index: number;
  quote_id: string;
  workspace_id: string;
  status: "confirming" | "finalized" | "reorged";
  /** The settlement entry as the confirming event carried it (JSON): a reorged event reports it again. */
  entry: string;
};

/** A timestamp the database defaults (`now()`) and the code may still set. */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** numeric(78,0): written as a bigint or decimal string, read back as a decimal string. */
type Uint = ColumnType<string, bigint | string, bigint | string>;
/** bigint columns come back from both drivers as decimal strings. */
type Int8 = ColumnType<string, bigint | number | string, bigint | number | string>;
/** An Int8 column with a default: optional on insert. */
type DefaultedInt8 = ColumnType<string, bigint | number | string | undefined, bigint | number | string>;

/** A builder quote as issued: the terms, the fees, and the exact transaction a swap preparation returns. */
export type BuilderQuoteTable = {
  /** bytes32 hex carried in the calldata into the settlement event. */
  id: string;
  workspace_id: string;
  key_id: string;
  builder_code: string;
  payer: string;
  recipient: string;
  token_in: string;
  token_out: string;
  amount_in: Uint;
  gross_amount_out: Uint;
  route_fee: Uint;
  builder_fee: Uint;
  amount_out: Uint;
  minimum_amount_out: Uint;
  route_fee_bps: number;
  builder_fee_bps: number;
  policy_version: Int8;
  policy_source: "onchain" | "local-preview";
  builder_recipient: string;
  settlement_available: boolean;
  block_number: Int8;
  tx_to: string;
  tx_data: string;
  tx_value: Uint;
  /** When the transaction in `tx_data` starts to revert: the calldata's own deadline, kept readable. */
  deadline: Timestamp;
  expires_at: Timestamp;
  created_at: DefaultedTimestamp;
};

/** A swap preparation under an Idempotency-Key: its saved status is the source of truth for retries. */
export type SwapPreparationTable = {
  key_id: string;
  idempotency_key: string;
  quote_id: string;
  /** SHA-256 of the request body: the same key with a different body is a conflict. */
  request_hash: string;
  status: "pending" | "ready" | "failed";
  failure: string | null;
  response: ColumnType<unknown, string | null, string | null> | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
};

/** A verified, finalized attributed settlement, recorded by receipt verification. */
export type SettlementTable = {
  quote_id: string;
  key_id: string;
  hash: string;
  block_number: Int8;
  block_hash: string;
  log_index: number;
  builder_code: string;
  token_out: string;
  gross_amount_out: Uint;
  route_fee: Uint;
  builder_fee: Uint;
  amount_out: Uint;
  finalized_at: DefaultedTimestamp;
};

/** Secrets every process of a deployment must share (e.g. the history cursor signing key). */
export type ServiceSecretTable = {
  name: string;
  /** Hex. */
  value: string;
  created_at: DefaultedTimestamp;
};

export type Database = {
  workspaces: WorkspaceTable;
  keys: KeyTable;
  quota_counters: QuotaCounterTable;
  builder_quotes: BuilderQuoteTable;
  swap_preparations: SwapPreparationTable;
  settlements: SettlementTable;
  service_secrets: ServiceSecretTable;
  key_rate_counters: KeyRateCounterTable;
  portal_used_nonces: PortalUsedNonceTable;
  portal_sessions: PortalSessionTable;
  pool_index_pools: PoolIndexPoolTable;
  pool_index_state: PoolIndexStateTable;
  indexer_leases: IndexerLeaseTable;
  settlement_events: SettlementEventTable;
  settlement_index_state: SettlementIndexStateTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  settlement_watches: SettlementWatchTable;
};

/**
 * The database handle. Only the repositories in src/store/repositories query through it; every layer above
 * passes it along to them (or to domain functions) without importing Kysely.
 */
export type Db = Kysely<Database>;
