import { z } from "@hono/zod-openapi";

/** A query integer in `[min, max]`, kept a string on the wire; the rejection names the range. */
export function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,9}$/, "must be an integer")
    .refine((value) => Number(value) >= min && Number(value) <= max, `must be between ${min} and ${max}`);
}
