import { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";

/**
 * Marks a zod issue as "another chain was asked for": the validation hook answers it 400
 * UNSUPPORTED_CHAIN instead of INVALID_REQUEST (docs/rules.md, service rule 2: the chain is
 * selected automatically on builder endpoints).
 */
const UNSUPPORTED_CHAIN_ISSUE = "unsupportedChain";

const checkChain = (value: number, ctx: z.RefinementCtx) => {
  if (value !== CHAIN_ID)
    ctx.addIssue({
      code: "custom",
      message: `only chain ${CHAIN_ID} is supported`,
      params: { [UNSUPPORTED_CHAIN_ISSUE]: true },
    });
};

const INTEGER = /^[0-9]{1,20}$/;

/** A chain id query parameter: a decimal integer that must be the supported chain. */
export const ChainIdParam = z
  .string()
  .regex(INTEGER, "must be an integer")
  .superRefine((value, ctx) => {
    // A malformed value is an invalid request, not a request for another chain.
    if (INTEGER.test(value)) checkChain(Number(value), ctx);
  })
  .openapi({
    example: String(CHAIN_ID),
    description: `Must be ${CHAIN_ID}; any other is 400 UNSUPPORTED_CHAIN.`,
  });

/** An optional chain id in a JSON body: an integer that must be the supported chain. */
export const ChainIdField = z
  .number()
  .int()
  .superRefine((value, ctx) => checkChain(value, ctx))
  .openapi({
    example: CHAIN_ID,
    description: `Optional; must be ${CHAIN_ID}; any other is 400 UNSUPPORTED_CHAIN.`,
  });

/** Whether a validation failure is about the chain alone (answered 400 UNSUPPORTED_CHAIN). */
export function isUnsupportedChain(issues: readonly z.core.$ZodIssue[]): boolean {
  return issues.some(
    (issue) =>
      issue.code === "custom" &&
      (issue.params as Record<string, unknown> | undefined)?.[UNSUPPORTED_CHAIN_ISSUE],
  );
}
