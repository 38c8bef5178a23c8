import { JunctionError } from "../errors/junction-error.ts";
import { eventSeq, eventsAfter, lastSeq, type StoredEvent, seqBefore } from "../store/repositories/events.ts";
import type { Db } from "../store/schema.ts";
import { SETTLEMENT_EVENT_TYPES, type SettlementEventType } from "./event-envelope.ts";
import type { OutboxSignal } from "./outbox-signal.ts";

/** How long events stay in the outbox: the stream resumes over at least 7 days; 30 are kept. */
export const EVENT_RETENTION_DAYS = 30;

/** Where a stream starts: after a given event (resume), from a time, or from now. */
export type StreamStart = { lastEventId?: string | undefined; since?: Date | undefined };

/**
 * The stream position a workspace's stream starts after (docs/api/builders.md, "Events and webhooks"):
 * just after `lastEventId` (an event of this workspace still kept; otherwise 409 EVENT_ID_UNKNOWN), the
 * first event at or after `since`, or the newest event (only new events follow).
 */
export async function streamPosition(db: Db, workspaceId: string, start: StreamStart): Promise<bigint> {
  if (start.lastEventId !== undefined) {
    const seq = await eventSeq(db, workspaceId, start.lastEventId);
    if (seq === undefined)
      throw new JunctionError(
        "EVENT_ID_UNKNOWN",
        "Last-Event-ID names no event of this workspace still kept: reconnect without it, or with `since`",
      );
    return seq;
  }
  if (start.since !== undefined) return seqBefore(db, start.since);
  return lastSeq(db);
}

/**
 * The workspace's events after position `after`, of `types`, as they are written: a page at a time, then
 * waiting for this process to write more (`signal`) or `pollMs` (events other processes write). Ends when
 * `until` says so.
 */
export async function* workspaceEvents(
  deps: { db: Db; signal: OutboxSignal },
  workspaceId: string,
  after: bigint,
  options: { types?: readonly SettlementEventType[]; pollMs?: number; until: () => boolean },
): AsyncGenerator<StoredEvent> {
  const types = options.types ?? SETTLEMENT_EVENT_TYPES;
  let position = after;
  while (!options.until()) {
    // A write notified while the page is read still wakes the wait below.
    const since = deps.signal.seen();
    const page = await eventsAfter(deps.db, workspaceId, position, types, 100);
    for (const event of page) {
      position = event.seq;
      yield event;
    }
    if (page.length < 100 && !options.until()) await deps.signal.wait(options.pollMs ?? 1_000, since);
  }
}
