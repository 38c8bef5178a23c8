import { JunctionError } from "../errors/junction-error.ts";

/**
 * SQLSTATEs that say the database server cannot serve, not that a statement was wrong: class 08 (connection
 * exception), 57P01-57P03 (admin or crash shutdown, cannot connect now) and 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** Socket errors of a connection to the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
/**
 * node-postgres reports a lost or impossible connection with plain errors that carry no code: these are its
 * fixed messages (pg's client.js and pg-pool), the only handle it gives.
 */
const PG_CONNECTION_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
];

/** A failure of the database server or the connection to it, as opposed to a bug or a refused statement. */
export function isDatabaseFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  return PG_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message));
}

/** Seconds a client should wait before retrying while the database is away. */
const RETRY_AFTER_SECONDS = 2;

/** The database could not serve the request: 503 UPSTREAM_UNAVAILABLE, reason `database-unavailable`. */
export class DatabaseUnavailableError extends JunctionError {
  override name = "DatabaseUnavailableError";
  constructor(options: { cause?: unknown } = {}) {
    super("UPSTREAM_UNAVAILABLE", "the database did not answer; retry shortly", {
      reason: "database-unavailable",
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      ...options,
    });
  }
}
