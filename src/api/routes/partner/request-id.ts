import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { invalidInput } from "../../../errors/junction-error.ts";
import { REQUEST_ID_PATTERN } from "../../../partners/limits.ts";
import type { PartnerVariables } from "./partner-api-deps.ts";

/**
 * The partner API's trace id (docs/rules.md, partner quote rule 5): the `x-request-id` header when it is 1
 * to 128 characters of `[A-Za-z0-9._:-]` (else 400, so nothing unbounded is echoed), or a fresh UUID; set
 * as `c.var.requestId` and echoed in the `x-request-id` response header of every answer, errors included.
 */
export function requestId(): MiddlewareHandler<{ Variables: Pick<PartnerVariables, "requestId"> }> {
  return async (c, next) => {
    const sent = c.req.header("x-request-id");
    const id = sent ?? randomUUID();
    c.header("x-request-id", REQUEST_ID_PATTERN.test(id) ? id : randomUUID());
    if (!REQUEST_ID_PATTERN.test(id))
      throw invalidInput("x-request-id", "must be 1 to 128 characters of A-Z a-z 0-9 . _ : -");
    c.set("requestId", id);
    await next();
    c.res.headers.set("x-request-id", id);
  };
}
