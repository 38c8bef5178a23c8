import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { CHAIN_ID } from "../chain/chain.ts";
import { withRequestDeadline } from "../chain/request-deadline.ts";
import { InvalidRequestError, JunctionError } from "../errors/junction-error.ts";
import { QUOTE_LIMITS } from "../quote/limits.ts";
import { type ErrorLog, handleError, notFound } from "./errors.ts";
import { answerWhileStopping, type Lifecycle } from "./lifecycle.ts";
import { type Observer, observe } from "./observe.ts";
import { requestId } from "./request-id.ts";
import { isUnsupportedChain } from "./schemas/chain-id.ts";

/** The time budget of any request: the public quote's deadline, the longest any endpoint may take. */
const REQUEST_BUDGET_MS = QUOTE_LIMITS.deadlineMs;

/** The largest request body any endpoint accepts; the largest real one (a 4 × 4 plan) is about 2 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * An OpenAPIHono app with our error contract: request validation failures become 400 INVALID_REQUEST with
 * the rejected paths (400 UNSUPPORTED_CHAIN when another chain was asked for), a body over 64 KiB 413
 * PAYLOAD_TOO_LARGE (before it is parsed), unknown routes 404 NOT_FOUND, anything unexpected a bare 500
 * INTERNAL (logged with the request's trace id). Every response carries an `x-request-id` (see
 * request-id.ts); `observer`, when given, sees every answered request; with a `lifecycle`, answers close
 * their connections once the process is stopping and requests are refused with 503 SHUTTING_DOWN once it
 * closes. Every response carries the usual security headers (nosniff, no framing) and
 * `Cache-Control: no-store`: no completed price or execution result is cached (docs/rules.md, comparison
 * rule 14), by us or by anyone between us and the client.
 */
export function createApp(
  logError: ErrorLog,
  options: { observer?: Observer; lifecycle?: Lifecycle } = {},
): OpenAPIHono {
  const { observer, lifecycle } = options;
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (result.success) return;
      if (isUnsupportedChain(result.error.issues))
        throw new JunctionError("UNSUPPORTED_CHAIN", `only chain ${CHAIN_ID} is supported`);
      throw new InvalidRequestError(
        result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      );
    },
  });
  if (observer) app.use(observe(observer));
  app.use(requestId());
  // Every chain call made for this request is bounded by what is left of its budget.
  app.use((_, next) => withRequestDeadline(REQUEST_BUDGET_MS, next));
  if (lifecycle) app.use(answerWhileStopping(lifecycle));
  app.use(secureHeaders({ crossOriginResourcePolicy: false }));
  app.use(async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new JunctionError("PAYLOAD_TOO_LARGE", `the request body exceeds ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.onError(handleError(logError));
  app.notFound(notFound);
  return app;
}
