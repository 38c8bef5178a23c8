import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { isNodeFailure, UpstreamUnavailableError } from "../chain/upstream-error.ts";
import { echo, JunctionError } from "../errors/junction-error.ts";
import { DatabaseUnavailableError, isDatabaseFailure } from "../store/database-failure.ts";
import { BUILDER_SURFACE_CODES, ERROR_STATUS } from "./error-status.ts";
import { traceOf } from "./request-id.ts";

/** The one error body of every surface: `{ "error": { "code", "message", "reason"?, "issues"? } }`. */
export function errorBody(error: JunctionError) {
  return {
    error: {
      code: error.code,
      message: error.shortMessage,
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.issues?.length ? { issues: error.issues } : {}),
    },
  };
}

/**
 * Whatever a handler threw, as the error the client sees: our own errors as they are; a node failure that
 * escaped a domain function, and a database that went away, as 503 UPSTREAM_UNAVAILABLE; a request Hono could not parse as 400; anything
 * else is a bug, logged and answered with a bare 500 INTERNAL.
 */
export function toJunctionError(error: unknown, log: (error: unknown) => void): JunctionError {
  if (error instanceof JunctionError) return error;
  if (isNodeFailure(error)) return new UpstreamUnavailableError("rpc-unavailable", { cause: error });
  if (isDatabaseFailure(error)) return new DatabaseUnavailableError({ cause: error });
  if (error instanceof HTTPException && error.status < 500)
    return new JunctionError("INVALID_REQUEST", "the request could not be parsed", { cause: error });
  log(error);
  return new JunctionError("INTERNAL", "internal error", { cause: error });
}

/** The builder surface's own code for an error, where its status table differs (see BUILDER_SURFACE_CODES). */
function onBuilderSurface(error: JunctionError): JunctionError {
  const code = BUILDER_SURFACE_CODES[error.code];
  if (!code) return error;
  const message = code === "UNSUPPORTED_TERMS" ? `${error.shortMessage} (${error.code})` : error.shortMessage;
  return new JunctionError(code, message, {
    ...(error.issues ? { issues: error.issues } : {}),
    ...(code === "UPSTREAM_UNAVAILABLE"
      ? { reason: "tip-unstable" as const }
      : error.reason
        ? { reason: error.reason }
        : {}),
    cause: error,
  });
}

/** Logs an unexpected error with the trace id of the request it broke. */
export type ErrorLog = (error: unknown, requestId?: string) => void;

/** The error code each failed request was answered with (for the access log and metrics). */
const answeredCodes = new WeakMap<Request, string>();

/** The error code a request was answered with, if it failed. */
export function errorCodeOf(request: Request): string | undefined {
  return answeredCodes.get(request);
}

/** Hono `onError`: every failure answered from the one code-to-status table, with Retry-After when given. */
export function handleError(log: ErrorLog) {
  return (thrown: Error, c: Context) => {
    let error = toJunctionError(thrown, (unexpected) => log(unexpected, traceOf(c.req.raw)));
    if (c.req.path.startsWith("/api/v2/builders/")) error = onBuilderSurface(error);
    answeredCodes.set(c.req.raw, error.code);
    if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
    return c.json(errorBody(error), ERROR_STATUS[error.code]);
  };
}

export function notFound(c: Context) {
  answeredCodes.set(c.req.raw, "NOT_FOUND");
  return c.json(
    errorBody(
      new JunctionError("NOT_FOUND", `no route for ${echo(c.req.method, 16)} ${echo(c.req.path, 200)}`),
    ),
    404,
  );
}
