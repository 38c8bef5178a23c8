import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { isNodeFailure, UpstreamUnavailableError } from "../chain/upstream-error.ts";
import { echo, JunctionError } from "../errors/junction-error.ts";
import { DatabaseUnavailableError, isDatabaseFailure } from "../store/database-failure.ts";
import { ERROR_STATUS } from "./error-status.ts";
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

/** Logs an unexpected error with the trace id of the request it broke. */
export type ErrorLog = (error: unknown, requestId?: string) => void;

/** The error code each failed request was answered with (for the access log and metrics). */
const answeredCodes = new WeakMap<Request, string>();

/** The error code a request was answered with, if it failed. */
export function errorCodeOf(request: Request): string | undefined {
  return answeredCodes.get(request);
}

/** How a surface words errors its own way (docs/rules.md, errors: builder), before the status table answers. */
export type RestateError = (error: JunctionError) => JunctionError;

/** The surface each request is served by, when it restates errors (set by {@link errorSurface}). */
const surfaces = new WeakMap<Request, RestateError>();

/**
 * Middleware a surface mounts in front of its routes to restate the errors they throw: the surface's one
 * mapping, declared where the surface is registered. Every other request is answered as thrown.
 */
export function errorSurface(restate: RestateError): MiddlewareHandler {
  return async (c, next) => {
    surfaces.set(c.req.raw, restate);
    await next();
  };
}

/** Hono `onError`: every failure answered from the one code-to-status table, with Retry-After when given. */
export function handleError(log: ErrorLog) {
  return (thrown: Error, c: Context) => {
    const junctionError = toJunctionError(thrown, (unexpected) => log(unexpected, traceOf(c.req.raw)));
    const error = surfaces.get(c.req.raw)?.(junctionError) ?? junctionError;
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
