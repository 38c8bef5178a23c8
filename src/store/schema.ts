import type { ColumnType, Generated } from "kysely";

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
};

/** API keys are stored only as a SHA-256 hash; `prefix` is the visible part a user recognises. */
export type ApiKeyTable = {
  id: string;
  workspace_id: string;
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

export type Database = {
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
  quota_counters: QuotaCounterTable;
};
