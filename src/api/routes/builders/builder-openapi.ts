import type { OpenAPIHono } from "@hono/zod-openapi";
import { MAX_BODY_BYTES } from "../../create-app.ts";
import { errorResponse } from "../../schemas/error.ts";

/** The OpenAPI security scheme of the builder API: a workspace key in the `x-api-key` header. */
export const BUILDER_SECURITY = [{ ApiKey: [] }];

export function registerBuilderSecurity(app: OpenAPIHono): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "A workspace API key (`jct_…`), created with `junction key create`; server-side only. Scopes: quote, swap, tokens, receipts.",
  });
}

/**
 * The error responses every builder endpoint shares (docs/rules.md, errors: builder), with one body
 * shape: `{ "error": { "code", "message", "issues"? } }`. Routes add their own 404/409/503 entries.
 */
export const BUILDER_ERROR_RESPONSES = {
  400: errorResponse(
    "INVALID_REQUEST (the rejected inputs are listed in `issues`), UNSUPPORTED_TERMS or UNSUPPORTED_ACTION",
  ),
  401: errorResponse("UNAUTHORIZED: missing, malformed, expired or revoked API key"),
  402: errorResponse(
    "ALLOWANCE_EXHAUSTED: the workspace's hourly allowance is spent; Retry-After says when it renews",
  ),
  403: errorResponse("FORBIDDEN: the API key lacks the endpoint's scope"),
  429: errorResponse(
    "QUOTA_EXCEEDED (workspace per-minute quota) or BUSY (service capacity); honour Retry-After",
  ),
  503: errorResponse("UPSTREAM_UNAVAILABLE: the chain node did not answer"),
} as const;

/**
 * The answer of every endpoint that takes a body to one over the limit every host enforces (create-app.ts),
 * given before the body is read, on a connection the server then closes (docs/rules.md, ours: connections).
 */
export const BODY_LIMIT_RESPONSES = {
  413: errorResponse(
    `PAYLOAD_TOO_LARGE: the body exceeds ${MAX_BODY_BYTES} bytes; refused before it is read, with \`Connection: close\``,
  ),
} as const;
