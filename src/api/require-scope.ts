import type { MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import type { Scope } from "../auth/api-key.ts";
import { authenticate, type Principal } from "../auth/keys.ts";
import type { Database } from "../store/schema.ts";
import { ApiError } from "./errors.ts";

export type AuthVariables = { principal: Principal };

const MESSAGES = {
  missing: "missing API key: send it in the x-api-key header",
  malformed: "invalid API key",
  unknown: "invalid API key",
  expired: "the API key has expired",
  revoked: "the API key has been revoked",
} as const;

/**
 * Builder endpoints: the `x-api-key` header must carry a live key (else 401) holding `scope` (else 403).
 * The key is looked up on every request, so a revocation takes effect at once. The key itself never
 * appears in a response or a log.
 */
export function requireScope(
  db: Kysely<Database>,
  scope: Scope,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const result = await authenticate(db, c.req.header("x-api-key"));
    if ("failure" in result) throw new ApiError("UNAUTHORIZED", MESSAGES[result.failure]);
    if (!result.scopes.includes(scope))
      throw new ApiError("FORBIDDEN", `the API key lacks the ${scope} scope`);
    c.set("principal", result);
    await next();
  };
}
