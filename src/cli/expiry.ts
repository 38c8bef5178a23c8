import { UsageError } from "./cli-errors.ts";

const RELATIVE = /^([1-9][0-9]{0,5})([smhd])$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * A key's expiry from `--expires`: an ISO 8601 date or date-time (a bare date is midnight UTC), or a
 * duration from now in days (`30d`), hours (`12h`), minutes (`30m`) or seconds (`90s`). Keys expire, are scoped and revocable
 * (docs/rules.md, auth rule 8 asks this of customer keys; builder and partner keys get the same).
 */
export function parseExpiry(value: string, now = Date.now(), command = "key create"): Date {
  const relative = RELATIVE.exec(value);
  if (relative) {
    return new Date(now + Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS]);
  }
  const at = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(
      `--expires must be an ISO date (2027-01-31), or a duration like 30d, 12h, 30m or 90s`,
      command,
    );
  return new Date(at);
}
