import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { invalidInput, JunctionError } from "../../../errors/junction-error.ts";
import { SETTLEMENT_EVENT_TYPES, type SettlementEventType } from "../../../events/event-envelope.ts";
import { EVENT_RETENTION_DAYS, streamPosition, workspaceEvents } from "../../../events/event-stream.ts";
import type { OutboxSignal } from "../../../events/outbox-signal.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import {
  BuilderEventsHeadersSchema,
  BuilderEventsQuerySchema,
  SettlementEventSchema,
} from "../../schemas/builder-events.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** What the event stream needs beyond the builder API: the outbox's signal, and when to end streams. */
export type EventStreamDeps = {
  signal: OutboxSignal;
  /** True once the process is leaving: streams end so clients reconnect (and resume) elsewhere. */
  leaving: () => boolean;
};

export const EVENT_STREAM_LIMITS = {
  /** Open streams per workspace in one process; more answer 429 BUSY. */
  streamsPerWorkspace: 5,
  /** A comment line this often keeps proxies from closing a quiet stream (ms). */
  heartbeatMs: 15_000,
  /** How often the outbox is read when nothing written in this process wakes the stream (ms). */
  pollMs: 1_000,
} as const;

/**
 * `GET /api/v2/builders/events` (scope `receipts`, one request of the receipts quota per connection): the
 * workspace's settlement events as Server-Sent Events (docs/api/builders.md, "Events and webhooks"), each
 * with its stable event id as the SSE `id`, resumable with `Last-Event-ID`, with heartbeats.
 */
export function registerEventsRoute(
  app: OpenAPIHono,
  deps: BuilderApiDeps & { events: EventStreamDeps },
): void {
  const open = new Map<string, number>();
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/events",
    tags: ["Builder"],
    summary: "The workspace's settlement events as a resumable Server-Sent Events stream",
    description: [
      "Scope `receipts`; one request of the receipts quota per connection. Sends each of the workspace's settlement events (`settlement.confirming`, `settlement.finalized`, `settlement.reorged`) as an SSE message: `id:` the event id, `event:` the type, `data:` the event as JSON (schema `SettlementEvent`, the same body a webhook delivery carries).",
      `Reconnect with the \`Last-Event-ID\` header (EventSource does it by itself) to resume right after the last event received, without gaps or repeats in the stream's order; events are kept ${EVENT_RETENTION_DAYS} days (at least 7 are promised). A \`Last-Event-ID\` no longer kept, or of another workspace, is a 409 EVENT_ID_UNKNOWN: reconnect without it, or with \`since\`. Without either, only new events are sent.`,
      `A comment line (\`: heartbeat\`) comes every ${EVENT_STREAM_LIMITS.heartbeatMs / 1000} s while nothing happens. A process that is shutting down ends its streams; reconnect and resume. At most ${EVENT_STREAM_LIMITS.streamsPerWorkspace} streams per workspace are open on one process (429 BUSY beyond).`,
    ].join("\n\n"),
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "receipts")] as const,
    request: { query: BuilderEventsQuerySchema, headers: BuilderEventsHeadersSchema },
    responses: {
      200: {
        description:
          "An event stream (`text/event-stream`); each message's `data` is a `SettlementEvent` as JSON",
        content: { "text/event-stream": { schema: SettlementEventSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      409: errorResponse("EVENT_ID_UNKNOWN: `Last-Event-ID` names no event of this workspace still kept"),
    },
  });

  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.get("principal");
    const types = eventTypes(query.types);
    const lastEventId = c.req.valid("header")["last-event-id"];
    const since = query.since === undefined ? undefined : new Date(Number(query.since) * 1000);
    const after = await streamPosition(deps.db, workspaceId, { lastEventId, since });
    if ((open.get(workspaceId) ?? 0) >= EVENT_STREAM_LIMITS.streamsPerWorkspace)
      throw new JunctionError("BUSY", "this workspace has as many event streams open here as allowed", {
        retryAfterSeconds: 2,
      });
    await chargeRequest(c);
    open.set(workspaceId, (open.get(workspaceId) ?? 0) + 1);
    const aborted = { value: false };
    c.req.raw.signal.addEventListener("abort", () => {
      aborted.value = true;
      deps.events.signal.notify();
    });
    c.header("Cache-Control", "no-store");
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => {
        aborted.value = true;
        deps.events.signal.notify();
      });
      const until = () => aborted.value || stream.aborted || deps.events.leaving();
      let lastWrite = Date.now();
      const heartbeat = setInterval(() => {
        if (Date.now() - lastWrite < EVENT_STREAM_LIMITS.heartbeatMs) return;
        lastWrite = Date.now();
        void stream.write(": heartbeat\n\n");
      }, EVENT_STREAM_LIMITS.heartbeatMs / 3);
      try {
        await stream.write(": connected\n\n");
        const events = workspaceEvents({ db: deps.db, signal: deps.events.signal }, workspaceId, after, {
          types,
          pollMs: EVENT_STREAM_LIMITS.pollMs,
          until,
        });
        for await (const event of events) {
          await stream.writeSSE({ id: event.id, event: event.type, data: event.payload });
          lastWrite = Date.now();
        }
      } finally {
        clearInterval(heartbeat);
        open.set(workspaceId, (open.get(workspaceId) ?? 1) - 1);
      }
    }) as never;
  });
}

function eventTypes(list: string | undefined): SettlementEventType[] {
  if (list === undefined || list === "") return [...SETTLEMENT_EVENT_TYPES];
  const known = new Set<string>(SETTLEMENT_EVENT_TYPES);
  const types = list.split(",").map((type) => type.trim());
  for (const type of types)
    if (!known.has(type))
      throw invalidInput("types", `comma-separated, of ${SETTLEMENT_EVENT_TYPES.join(", ")}`);
  return types as SettlementEventType[];
}
