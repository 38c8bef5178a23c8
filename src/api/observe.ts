import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { errorCodeOf } from "./errors.ts";
import { traceOf } from "./request-id.ts";

/** One answered request, as the access log and the metrics see it. */
export type RequestRecord = {
  requestId: string | undefined;
  method: string;
  /** The matched route's pattern (`/api/v2/builders/swaps/:idempotencyKey`), `unmatched` for a 404 path. */
  route: string;
  status: number;
  /** The error code the request was answered with, if it failed. */
  code: string | undefined;
  ms: number;
};

export type Observer = (record: RequestRecord) => void;

/**
 * Tells `observer` about every request once it is answered, errors included. Routes are labelled by their
 * pattern, never by the raw path, so a label set stays small whatever clients send; the query string and
 * headers are not recorded (they may carry keys).
 */
export function observe(observer: Observer): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const code = errorCodeOf(c.req.raw);
    observer({
      requestId: traceOf(c.req.raw),
      method: c.req.method,
      route: code === "NOT_FOUND" && c.res.status === 404 ? "unmatched" : routePath(c, -1),
      status: c.res.status,
      code,
      ms: performance.now() - started,
    });
  };
}
