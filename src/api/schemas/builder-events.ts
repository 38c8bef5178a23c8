import { z } from "@hono/zod-openapi";
import { SETTLEMENT_EVENT_TYPES } from "../../events/event-envelope.ts";
import { Settlement } from "./builder-history.ts";
import { ChainIdParam } from "./chain-id.ts";
import { Hash32 } from "./common-patterns.ts";

/** `GET /api/v2/builders/events` query: strict, so an unknown parameter is a 400 naming it. */
export const BuilderEventsQuerySchema = z
  .strictObject({
    chainId: ChainIdParam.optional(),
    types: z
      .string()
      .max(200)
      .optional()
      .openapi({
        description: `Comma-separated event types to receive (default: all of ${SETTLEMENT_EVENT_TYPES.join(", ")}).`,
        example: "settlement.finalized",
      }),
    since: z
      .string()
      .regex(/^[0-9]{1,12}$/)
      .optional()
      .openapi({
        description:
          "Unix seconds: replay the workspace's events written at or after this time (kept at least 7 days), then follow new ones. Ignored when a `Last-Event-ID` header resumes the stream. Without either, only new events are sent.",
        example: "1764403200",
      }),
  })
  .openapi("BuilderEventsQuery");

/** The header a reconnecting stream resumes with (EventSource sends it by itself). */
export const BuilderEventsHeadersSchema = z.object({
  "last-event-id": z
    .string()
    .max(64)
    .optional()
    .openapi({ description: "The `id` of the last event received: the stream resumes right after it." }),
});

export const SettlementEventSchema = z
  .object({
    id: z.string().openapi({
      description: "Stable event id: the same fact always has the same id. Deliveries can repeat; key on it.",
      example: "evt_4f1c0c2b8f7a4d51a3b06f7f61c2a9de",
    }),
    type: z.enum(SETTLEMENT_EVENT_TYPES),
    createdAt: z.string().openapi({ description: "When the event was written (ISO 8601, UTC)." }),
    workspace: z.string().openapi({ description: "The workspace the event belongs to." }),
    quoteId: Hash32.nullable(),
    // Without the history entry's `status` (always `finalized` there): an intersection would keep only that one.
    data: Settlement.omit({ status: true }).extend({
      status: z.enum(["confirming", "finalized", "reorged"]).openapi({
        description:
          "`confirming`: mined and verified, not final; `finalized`: the history entry; `reorged`: the transaction left the chain before finality (it may be mined again: a new `confirming` follows).",
      }),
    }),
  })
  .openapi("SettlementEvent", {
    description:
      "One settlement event, as the event stream sends it in `data:` and as a webhook delivery's body. `data` has the fields of a history settlement entry.",
  });
