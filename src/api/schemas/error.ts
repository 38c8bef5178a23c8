import { z } from "@hono/zod-openapi";
import { ERROR_CODES } from "../errors.ts";

export const ErrorResponseSchema = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]])
        .openapi({
          description: "Closed list of error codes; each maps to one HTTP status.",
        }),
      message: z
        .string()
        .openapi({ description: "Human-readable; never contains credentials, calldata or remote bodies." }),
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
