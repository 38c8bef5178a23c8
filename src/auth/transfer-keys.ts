import {
  insertTransferKey,
  listTransferKeyRows,
  revokeTransferKeyRow,
  transferKeyByHash,
  transferKeyRow,
} from "../store/repositories/transfer-keys.ts";
import type { Db } from "../store/schema.ts";
import { generateApiKey, hashApiKey, parseApiKey } from "./api-key.ts";
import { asDate, keyLifecycle } from "./key-lifecycle.ts";
import { type AuthFailure, KeyPolicyError } from "./keys.ts";

/**
 * Scopes of a transfer customer key (docs/rules.md, auth rule 8; ours: transfer keys): `estimates` reads
 * `GET /api/transfers/v1/routes`; `transfers` is reserved for transfer creation, funding and status, which
 * stay disabled (no endpoint answers to it yet), so a customer's key can be issued once for both.
 */
export const TRANSFER_SCOPES = ["estimates", "transfers"] as const;
export type TransferScope = (typeof TRANSFER_SCOPES)[number];

/** Who is asking for a transfer estimate: the key, its operator-given name and its scopes. */
export type TransferPrincipal = { keyId: string; name: string; scopes: TransferScope[] };

export type CreatedTransferKey = {
  id: string;
  /** `jtk_<id>`: the visible part listings show. */
  prefix: string;
  name: string;
  scopes: TransferScope[];
  expiresAt: Date | null;
  /** The full key, shown once. */
  secret: string;
};

/** A transfer key as listings show it: never its secret nor its hash. */
export type TransferKeyView = {
  id: string;
  prefix: string;
  name: string;
  scopes: TransferScope[];
  status: "active" | "expired" | "revoked";
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

const PREFIX = "jtk";

/**
 * Issues a transfer customer key (docs/rules.md, auth rule 8): `jtk_<id>_<secret><checksum>`, the full key
 * returned once and only its SHA-256 stored.
 */
export async function createTransferKey(
  db: Db,
  input: { name: string; scopes: readonly TransferScope[]; expiresAt?: Date },
  now = new Date(),
): Promise<CreatedTransferKey> {
  if (input.name.trim() === "") throw new KeyPolicyError("a transfer key needs a name");
  if (input.scopes.length === 0) throw new KeyPolicyError("a transfer key needs at least one scope");
  const unknown = input.scopes.filter((scope) => !TRANSFER_SCOPES.includes(scope));
  if (unknown.length > 0)
    throw new KeyPolicyError(`unknown scope ${unknown.join(", ")} (known: ${TRANSFER_SCOPES.join(", ")})`);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime())
    throw new KeyPolicyError("the expiry is in the past");
  const key = generateApiKey(PREFIX);
  const scopes = TRANSFER_SCOPES.filter((scope) => input.scopes.includes(scope));
  const expiresAt = input.expiresAt ?? null;
  await insertTransferKey(db, {
    id: key.id,
    name: input.name,
    prefix: key.prefix,
    keyHash: key.hash,
    scopes,
    expiresAt,
  });
  return { id: key.id, prefix: key.prefix, name: input.name, scopes, expiresAt, secret: key.secret };
}

/** Every transfer key with its status, newest first. */
export async function listTransferKeys(db: Db, now = new Date()): Promise<TransferKeyView[]> {
  return (await listTransferKeyRows(db)).map((row) => toView(row, now));
}

/** One transfer key by its id or its visible prefix (`jtk_<id>`). */
export async function findTransferKey(
  db: Db,
  ref: string,
  now = new Date(),
): Promise<TransferKeyView | undefined> {
  const row = await transferKeyRow(db, ref.startsWith(`${PREFIX}_`) ? ref.slice(PREFIX.length + 1) : ref);
  return row ? toView(row, now) : undefined;
}

/**
 * Revokes a transfer key; effective for the very next request (keys are checked against the database each
 * time). False when it was already revoked or does not exist.
 */
export async function revokeTransferKey(db: Db, keyId: string, at = new Date()): Promise<boolean> {
  return revokeTransferKeyRow(db, keyId, at);
}

/**
 * Resolves an `X-Service-Api-Key` header to the customer key it carries, or says why it is refused
 * (docs/rules.md, auth rule 8). The key's shape and checksum are checked before any database read, so a
 * typo, a truncated paste or another surface's key never reaches the database.
 */
export async function authenticateTransferKey(
  db: Db,
  presented: string | undefined,
  now = new Date(),
): Promise<TransferPrincipal | { failure: AuthFailure }> {
  if (presented === undefined || presented.trim() === "") return { failure: "missing" };
  const key = presented.trim();
  if (!parseApiKey(key, PREFIX)) return { failure: "malformed" };
  const row = await transferKeyByHash(db, hashApiKey(key));
  if (!row) return { failure: "unknown" };
  if (row.revoked_at) return { failure: "revoked" };
  if (row.expires_at && asDate(row.expires_at).getTime() <= now.getTime()) return { failure: "expired" };
  return { keyId: row.id, name: row.name, scopes: knownScopes(row.scopes) };
}

/** Scopes as stored, narrowed to the ones this version knows (a later version's scope grants nothing here). */
function knownScopes(stored: readonly string[]): TransferScope[] {
  return TRANSFER_SCOPES.filter((scope) => stored.includes(scope));
}

function toView(
  row: {
    id: string;
    prefix: string;
    name: string;
    scopes: string[];
    expires_at: unknown;
    revoked_at: unknown;
    created_at: unknown;
  },
  now: Date,
): TransferKeyView {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: knownScopes(row.scopes),
    ...keyLifecycle(row, now),
  };
}
