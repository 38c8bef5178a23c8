/** A timestamp as a database driver hands it back: a Date (pg) or a string (PGlite over the socket). */
export const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

export type KeyStatus = "active" | "expired" | "revoked";

/** Where a key stands at `now`: revoked wins over expired, which wins over active. */
export function keyStatus(row: { expires_at: unknown; revoked_at: unknown }, now: Date): KeyStatus {
  if (row.revoked_at) return "revoked";
  return row.expires_at && asDate(row.expires_at).getTime() <= now.getTime() ? "expired" : "active";
}

/** A key's status at `now` with its timestamps as Dates: one derivation for every key listing. */
export function keyLifecycle(
  row: { expires_at: unknown; revoked_at: unknown; created_at: unknown },
  now: Date,
): { status: KeyStatus; expiresAt: Date | null; revokedAt: Date | null; createdAt: Date } {
  return {
    status: keyStatus(row, now),
    expiresAt: row.expires_at ? asDate(row.expires_at) : null,
    revokedAt: row.revoked_at ? asDate(row.revoked_at) : null,
    createdAt: asDate(row.created_at),
  };
}
