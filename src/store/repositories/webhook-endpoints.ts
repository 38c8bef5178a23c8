/**
 * Repository of webhook endpoints (migration 0014): a workspace's receivers, the event types each wants, and
 * the secret deliveries are signed with (and, while a rotation is recent, the one it replaced).
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

export type WebhookEndpointRow = {
  id: string;
  workspaceId: string;
  url: string;
  eventTypes: string[];
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
};

const COLUMNS = [
  "id",
  "workspace_id",
  "url",
  "event_types",
  "secret",
  "previous_secret",
  "previous_secret_until",
  "created_at",
] as const;

type Row = {
  id: string;
  workspace_id: string;
  url: string;
  event_types: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
};

function fromRow(row: Row): WebhookEndpointRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    eventTypes: row.event_types,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until && new Date(row.previous_secret_until),
    createdAt: new Date(row.created_at),
  };
}

export async function insertWebhookEndpoint(
  db: Db,
  endpoint: { id: string; workspaceId: string; url: string; eventTypes: string[]; secret: string },
): Promise<WebhookEndpointRow> {
  const row = await db
    .insertInto("webhook_endpoints")
    .values({
      id: endpoint.id,
      workspace_id: endpoint.workspaceId,
      url: endpoint.url,
      event_types: endpoint.eventTypes,
      secret: endpoint.secret,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

/** The workspace's endpoints, oldest first. */
export async function webhookEndpointsOf(db: Db, workspaceId: string): Promise<WebhookEndpointRow[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select(COLUMNS)
    .where("workspace_id", "=", workspaceId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(fromRow);
}

/** The workspace's endpoint `id`, if there is one. */
export async function webhookEndpoint(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select(COLUMNS)
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && fromRow(row);
}

/** How many endpoints the workspace has. */
export async function webhookEndpointCount(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes the endpoint and its deliveries. Returns whether there was one. */
export async function deleteWebhookEndpoint(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("webhook_endpoints")
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Replaces the endpoint's secret with `secret`; the old one stays valid (deliveries carry both signatures)
 * for `overlapSeconds`. Returns the endpoint after, undefined when there is none.
 */
export async function rotateWebhookSecret(
  db: Db,
  workspaceId: string,
  id: string,
  secret: string,
  overlapSeconds: number,
): Promise<WebhookEndpointRow | undefined> {
  const row = await db
    .updateTable("webhook_endpoints")
    .set((eb) => ({
      previous_secret: eb.ref("secret"),
      previous_secret_until: sql<Date>`now() + make_interval(secs => ${overlapSeconds})`,
      secret,
    }))
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && fromRow(row);
}
