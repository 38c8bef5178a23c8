import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { invalidInput } from "../errors/junction-error.ts";

/** An `x-request-id` every surface accepts and echoes: up to 128 characters of `[A-Za-z0-9._:-]`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Each request's trace id, kept beside the request rather than in typed context variables. */
const ids = new WeakMap<Request, string>();

/**
 * Every request's trace id (docs/rules.md, partner quote rule 5, and ours: request ids): the
 * `x-request-id` header when it is 1 to 128 characters of `[A-Za-z0-9._:-]` (else 400, so nothing
 * unbounded is echoed or logged), or a fresh UUID; echoed in the `x-request-id` response header of every
 * answer, errors included, and carried by every log line of the request. Runs first on every host.
 */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const sent = c.req.header("x-request-id");
    const id = sent ?? randomUUID();
    if (!REQUEST_ID_PATTERN.test(id)) {
      const generated = randomUUID();
      ids.set(c.req.raw, generated);
      c.header("x-request-id", generated);
      throw invalidInput("x-request-id", "must be 1 to 128 characters of A-Z a-z 0-9 . _ : -");
    }
    ids.set(c.req.raw, id);
    c.header("x-request-id", id);
    await next();
    c.res.headers.set("x-request-id", id);
  };
}

/** The trace id {@link requestId} settled on for this request. */
export function requestIdOf(c: Context): string {
  const id = ids.get(c.req.raw);
  if (!id) throw new Error("requestId() must run before the handler");
  return id;
}

/** The trace id of a request, if {@link requestId} saw it (for log lines, which must never throw). */
export function traceOf(request: Request): string | undefined {
  return ids.get(request);
}
