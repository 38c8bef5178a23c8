import { z } from "@hono/zod-openapi";

/** A query integer in `[min, max]`, kept a string on the wire; the rejection names the range. */
export function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,9}$/, "must be an integer")
    .refine((value) => Number(value) >= min && Number(value) <= max, `must be between ${min} and ${max}`);
}

export const BuilderCodeParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, "must match ^[A-Za-z0-9_-]{3,32}$ (case-sensitive)");

export const Hash32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex value");
