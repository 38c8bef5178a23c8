import { UsageError } from "./cli-errors.ts";

const RELATIVE = /^([1-9][0-9]{0,5})([dh])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * A key's expiry from `--expires`: an ISO 8601 date or date-time (a bare date is midnight UTC), or a
 * duration from now in days (`30d`) or hours (`12h`). Keys expire, are scoped and revocable
 * (docs/rules.md, auth rule 8 asks this of customer keys; builder and partner keys get the same).
 */
export function parseExpiry(value: string, now = Date.now(), command = "key create"): Date {
  const relative = RELATIVE.exec(value);
  if (relative) {
    const hours = Number(relative[1]) * (relative[2] === "d" ? 24 : 1);
    return new Date(now + hours * 3_600_000);
  }
  const at = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(
      `--expires must be an ISO date (2027-01-31), or a duration like 30d or 12h`,
      command,
    );
  return new Date(at);
}
