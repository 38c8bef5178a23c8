import {
  insertPartnerKey,
  listPartnerKeyRows,
  partnerKeyByHash,
  partnerKeyRow,
  revokePartnerKeyRow,
} from "../store/repositories/partner-keys.ts";
import type { Db } from "../store/schema.ts";
import { generateApiKey, hashApiKey, parseApiKey } from "./api-key.ts";
import { asDate, keyLifecycle } from "./key-lifecycle.ts";
import { type AuthFailure, KeyPolicyError } from "./keys.ts";

/**
 * The partner quote's transaction parameters: only a key with swap permission may use them
 * (docs/rules.md, auth rule 7 and partner quote rule 3).
 */
export const SWAP_PARAMETERS = ["recipient", "slippageBps", "minOut", "deadline"] as const;

/** Who is calling the partner API: the key, its operator-given name, and whether it may shape a transaction. */
export type PartnerPrincipal = { keyId: string; name: string; swap: boolean };

export type CreatedPartnerKey = {
  id: string;
  /** `jpk_<id>`: the visible part listings show. */
  prefix: string;
  name: string;
  swap: boolean;
  expiresAt: Date | null;
  /** The full key, shown once. */
  secret: string;
};

/** A partner key as listings show it: never its secret nor its hash. */
export type PartnerKeyView = {
  id: string;
  prefix: string;
  name: string;
  swap: boolean;
  status: "active" | "expired" | "revoked";
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

const PREFIX = "jpk";

/**
 * Issues a partner key (docs/rules.md, auth rule 7): `jpk_<id>_<secret><checksum>`, the full key returned
 * once and only its SHA-256 stored. `swap` grants the transaction parameters.
 */
export async function createPartnerKey(
  db: Db,
  input: { name: string; swap: boolean; expiresAt?: Date },
  now = new Date(),
): Promise<CreatedPartnerKey> {
  if (input.name.trim() === "") throw new KeyPolicyError("a partner key needs a name");
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime())
    throw new KeyPolicyError("the expiry is in the past");
  const key = generateApiKey(PREFIX);
  const expiresAt = input.expiresAt ?? null;
  await insertPartnerKey(db, {
    id: key.id,
    name: input.name,
    prefix: key.prefix,
    keyHash: key.hash,
    swap: input.swap,
    expiresAt,
  });
  return {
    id: key.id,
    prefix: key.prefix,
    name: input.name,
    swap: input.swap,
    expiresAt,
    secret: key.secret,
  };
}

/** Every partner key with its status, newest first. */
export async function listPartnerKeys(db: Db, now = new Date()): Promise<PartnerKeyView[]> {
  return (await listPartnerKeyRows(db)).map((row) => toView(row, now));
}

/** One partner key by its id or its visible prefix (`jpk_<id>`). */
export async function findPartnerKey(
  db: Db,
  ref: string,
  now = new Date(),
): Promise<PartnerKeyView | undefined> {
  const row = await partnerKeyRow(db, ref.startsWith(`${PREFIX}_`) ? ref.slice(PREFIX.length + 1) : ref);
  return row ? toView(row, now) : undefined;
}

/**
 * Revokes a partner key; effective for the very next request (keys are checked against the database each
 * time). False when it was already revoked or does not exist.
 */
export async function revokePartnerKey(db: Db, keyId: string, at = new Date()): Promise<boolean> {
  return revokePartnerKeyRow(db, keyId, at);
}

/** `Bearer <token>`: the scheme is case-insensitive (RFC 6750), the token one run of non-space characters. */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Resolves an `Authorization` header to the partner key it carries, or says why it is refused
 * (docs/rules.md, auth rule 7). The key's shape and checksum are checked before any database read, so a
 * typo, a truncated paste or a builder key never reaches the database.
 */
export async function authenticatePartner(
  db: Db,
  authorization: string | undefined,
  now = new Date(),
): Promise<PartnerPrincipal | { failure: AuthFailure }> {
  if (authorization === undefined || authorization.trim() === "") return { failure: "missing" };
  const presented = BEARER.exec(authorization)?.[1];
  if (!presented || !parseApiKey(presented, PREFIX)) return { failure: "malformed" };
  const key = await partnerKeyByHash(db, hashApiKey(presented));
  if (!key) return { failure: "unknown" };
  if (key.revoked_at) return { failure: "revoked" };
  if (key.expires_at && asDate(key.expires_at).getTime() <= now.getTime()) return { failure: "expired" };
  return { keyId: key.id, name: key.name, swap: key.swap };
}

/** Timestamps arrive as Date from both drivers; typed loosely because schema.ts nests its column types. */

function toView(
  row: {
    id: string;
    prefix: string;
    name: string;
    swap: boolean;
    expires_at: unknown;
    revoked_at: unknown;
    created_at: unknown;
  },
  now: Date,
): PartnerKeyView {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    swap: row.swap,
    ...keyLifecycle(row, now),
  };
}
