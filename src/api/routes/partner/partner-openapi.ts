import type { OpenAPIHono } from "@hono/zod-openapi";
import { errorResponse } from "../../schemas/error.ts";

/** The OpenAPI security scheme of the partner API: a partner key as a bearer token. */
export const PARTNER_SECURITY = [{ PartnerBearer: [] }];

export function registerPartnerSecurity(app: OpenAPIHono): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "PartnerBearer", {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer <PARTNER_API_KEY>`: a partner key issued by the operator (`junction partner key create`); server-side only. Keys with swap permission may use recipient, slippageBps, minOut and deadline.",
  });
}

/** The error responses every partner endpoint shares, with the one error body shape. */
export const PARTNER_ERROR_RESPONSES = {
  400: errorResponse(
    "INVALID_REQUEST (any unknown query parameter, a malformed value or x-request-id; `issues` names them) or IDENTICAL_TOKENS",
  ),
  401: errorResponse("UNAUTHORIZED: missing, malformed, expired or revoked partner key"),
  403: errorResponse(
    "FORBIDDEN: recipient, slippageBps, minOut or deadline used with a key without swap permission",
  ),
  429: errorResponse(
    "RATE_LIMITED (the key's per-minute rate: 60 quotes, 120 token lookups) or BUSY (service capacity); honour Retry-After",
  ),
  503: errorResponse("UPSTREAM_UNAVAILABLE: the chain node did not answer (token lookup)"),
} as const;
