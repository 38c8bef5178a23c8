import { z } from "@hono/zod-openapi";
import { ERROR_CODES, ERROR_REASONS } from "../../errors/junction-error.ts";

export const ErrorResponseSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).openapi({
        description: "Closed list of error codes; each maps to one HTTP status.",
      }),
      message: z
        .string()
        .openapi({ description: "Human-readable; never contains credentials, calldata or remote bodies." }),
      reason: z.enum(ERROR_REASONS).optional().openapi({
        description:
          "Closed list; where the code alone does not say what failed. On 503 UPSTREAM_UNAVAILABLE: `rpc-unavailable` (the node did not answer), `rpc-rate-limited` (the node is rate-limiting this service: ask again after `Retry-After` seconds), `gas-price-unavailable` (no positive gas price: neither the node's suggestion nor the base fee), `block-pending` (the node's latest block had no number or hash yet), `tip-unstable` (the chain tip reorganised during the read), `database-unavailable` (the database did not answer; Retry-After 2). On 429 BUSY: `concurrency` or `rate`.",
      }),
      issues: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .openapi({ description: "Which inputs were rejected and why (validation errors only)." }),
    }),
  })
  .openapi("ErrorResponse");

/** An OpenAPI error response: `description` names the codes a route answers with under that status. */
export function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: ErrorResponseSchema } } };
}
