import { z } from "@hono/zod-openapi";
import { BUILDER_CODE_PATTERN } from "../../builders/builder-code.ts";
import { AMOUNT_IN_ISSUE, amountInIssue } from "../../routing/limits.ts";

/**
 * The common patterns (docs/rules.md, patterns), one schema each, shared by every DTO of every surface
 * (public, builder, partner); a field adds its own description and example with `.openapi`. Together with
 * `chain-id.ts` they are the one boundary for addresses, hashes, amounts and the chain id.
 */

/**
 * ADDRESS: 0x and 20 bytes of hex, accepted in any case and lowercased at the boundary, so domain code and
 * every response see one spelling; the zero address denotes native ETH.
 */
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .toLowerCase();

/** UINT: an amount (or block number) in raw base units, as a decimal string. */
export const Uint = z.string().regex(/^[0-9]+$/, "must be a decimal integer string");

/**
 * A raw amount sent by a client (query parameters of every quoting surface): a decimal integer without
 * leading zeros, so one amount has one spelling.
 */
export const RawAmount = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/, "must be a decimal integer without leading zeros");

/**
 * An exact input amount of any surface: a decimal string within the one range, AMOUNT_IN
 * (routing/limits.ts), each surface answering its own 400 naming the field.
 */
export function exactInput<T extends z.ZodString>(amount: T) {
  // Zod runs every check: a string the pattern refused is not parsed again.
  return amount.refine(
    (value) => !/^[0-9]+$/.test(value) || amountInIssue(BigInt(value)) === undefined,
    AMOUNT_IN_ISSUE,
  );
}

/** HASH32: 0x and 32 bytes of hex (hashes, quote ids, builder ids), lowercased at the boundary. */
export const Hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex value")
  .toLowerCase();

/** BUILDER_CODE: public, case-sensitive attribution, validated the same way on chain. */
export const BuilderCode = z
  .string()
  .regex(BUILDER_CODE_PATTERN, `must match ${BUILDER_CODE_PATTERN.source} (case-sensitive)`);
