/** A timestamp as a database driver hands it back: a Date (pg) or a string (PGlite over the socket). */
export const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

export type KeyStatus = "active" | "expired" | "revoked";

/**
 * Where a key (builder or partner) stands at `now`: revoked wins over expired, which wins over active;
 * with its timestamps as Dates. One derivation for every key listing.
 */
export function keyLifecycle(
  row: { expires_at: unknown; revoked_at: unknown; created_at: unknown },
  now: Date,
): { status: KeyStatus; expiresAt: Date | null; revokedAt: Date | null; createdAt: Date } {
  const expiresAt = row.expires_at ? asDate(row.expires_at) : null;
  const revokedAt = row.revoked_at ? asDate(row.revoked_at) : null;
  const status = revokedAt ? "revoked" : expiresAt && expiresAt <= now ? "expired" : "active";
  return { status, expiresAt, revokedAt, createdAt: asDate(row.created_at) };
}
