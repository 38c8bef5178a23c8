/**
 * Repository of the developer portal's sign-in nonces and sessions (migration 0007). Tokens are stored only
 * as hashes; addresses as lower-case hex.
 */
import type { Db } from "../schema.ts";

export async function insertNonce(db: Db, nonce: string, expiresAt: Date): Promise<void> {
  await db.insertInto("portal_nonces").values({ nonce, expires_at: expiresAt }).execute();
}

/** Deletes the nonce; true when it existed and had not expired at `now` (a nonce is good for one sign-in). */
export async function consumeNonce(db: Db, nonce: string, now: Date): Promise<boolean> {
  const row = await db
    .deleteFrom("portal_nonces")
    .where("nonce", "=", nonce)
    .returning("expires_at")
    .executeTakeFirst();
  return row !== undefined && new Date(row.expires_at).getTime() > now.getTime();
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

/** Forgets nonces and sessions that expired before `now`. */
export async function pruneExpiredPortalRows(db: Db, now: Date): Promise<void> {
  await db.deleteFrom("portal_nonces").where("expires_at", "<=", now).execute();
  await db.deleteFrom("portal_sessions").where("expires_at", "<=", now).execute();
}
