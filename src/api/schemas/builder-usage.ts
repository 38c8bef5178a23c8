import { z } from "@hono/zod-openapi";
import { ChainIdParam } from "./chain-id.ts";
import { BuilderCode } from "./common-patterns.ts";

/** `GET /api/v2/builders/usage` takes no parameters: any query parameter is a 400 naming it. */
export const BuilderUsageQuerySchema = z
  .strictObject({ chainId: ChainIdParam.optional() })
  .openapi("BuilderUsageQuery");

const Count = z.number().int();

/** Workspace usage (docs/rules.md, ours: usage). */
export const BuilderUsageSchema = z
  .object({
    workspace: z.object({
      id: z.string(),
      name: z.string(),
      builderCode: BuilderCode.nullable(),
      plan: z
        .string()
        .openapi({ description: "The plan whose limits apply (`free` or `growth`).", example: "free" }),
      activated: z.boolean().openapi({ description: "Whether the builder ID is activated on chain." }),
    }),
    limits: z
      .object({
        quotesPerMinute: Count.openapi({ description: "Builder quotes and multi-swap plans.", example: 10 }),
        receiptsPerMinute: Count.openapi({ description: "Receipt verification and history.", example: 60 }),
        tokensPerMinute: Count.openapi({ description: "Tokens, profile and usage.", example: 60 }),
        requestsPerHour: Count.openapi({
          description: "Hourly allowance over every builder endpoint.",
          example: 1000,
        }),
      })
      .openapi({ description: "Shared by every key of the workspace." }),
    usage: z
      .object({
        quote: Count.openapi({ description: "Spent of quotesPerMinute in the current minute." }),
        receipts: Count.openapi({ description: "Spent of receiptsPerMinute in the current minute." }),
        tokens: Count.openapi({
          description: "Spent of tokensPerMinute in the current minute, this request included.",
        }),
        swap: Count.openapi({
          description:
            "Swap preparations in the current minute (no per-minute limit; they count toward the hour).",
        }),
        hourly: Count.openapi({
          description: "Spent of requestsPerHour in the current hour, this request included.",
        }),
      })
      .openapi({ description: "Requests counted in the current windows." }),
    windows: z.object({
      minuteResetsAt: z.string().openapi({
        description: "ISO 8601 (UTC) end of the current minute window; windows align on whole UTC minutes.",
        example: "2026-01-01T12:35:00.000Z",
      }),
      hourResetsAt: z.string().openapi({
        description: "ISO 8601 (UTC) end of the current hour window; windows align on whole UTC hours.",
        example: "2026-01-01T13:00:00.000Z",
      }),
    }),
  })
  .openapi("BuilderUsage");
