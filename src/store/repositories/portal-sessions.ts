/**
 * Repository of the developer portal's used sign-in nonces and sessions (migrations 0007, 0011). Tokens are
 * stored only as hashes; addresses as lower-case hex.
 */
import type { Db } from "../schema.ts";

/**
 * Records that `nonce` opened a session, until it expires; false when it already had (a nonce is good for
 * one sign-in, across every process sharing the database).
 */
export async function recordNonceUse(db: Db, nonce: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto("portal_used_nonces")
    .values({ nonce, expires_at: expiresAt })
    .onConflict((oc) => oc.column("nonce").doNothing())
    .returning("nonce")
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertSession(
  db: Db,
  session: { tokenHash: string; address: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("portal_sessions")
    .values({ token_hash: session.tokenHash, address: session.address, expires_at: session.expiresAt })
    .execute();
}

/** The wallet signed in with this token hash, while the session has not expired at `now`. */
export async function sessionAddress(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const row = await db
    .selectFrom("portal_sessions")
    .select("address")
    .where("token_hash", "=", tokenHash)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row?.address;
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom("portal_sessions").where("token_hash", "=", tokenHash).execute();
}

/** Forgets used nonces and sessions that expired before `now`. */
export async function pruneExpiredPortalRows(db: Db, now: Date): Promise<void> {
  await db.deleteFrom("portal_used_nonces").where("expires_at", "<=", now).execute();
  await db.deleteFrom("portal_sessions").where("expires_at", "<=", now).execute();
}
