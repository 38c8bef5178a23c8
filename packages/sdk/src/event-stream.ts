import { JunctionApiError } from "./errors.ts";
import type { SettlementEvent, SettlementEventType } from "./event-types.ts";
import { createSseParser, type SseParser } from "./sse-parser.ts";

export type EventsOptions = {
  /** Resume right after this event (the `id` of the last event you processed), e.g. after a restart. */
  lastEventId?: string;
  /** Without `lastEventId`: first replay the events written at or after this time (unix seconds, or a Date). */
  since?: number | Date;
  /** Only these types (default: every settlement event). */
  types?: readonly SettlementEventType[];
  /** Aborting ends the iteration and closes the connection. */
  signal?: AbortSignal;
  /** Waits between reconnections, doubled after each failure up to `maxMs` (default 500 ms to 30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
};

export type EventStreamConnection = {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: (request: Request) => Promise<Response>;
};

const EVENTS_PATH = "/api/v2/builders/events";

/**
 * The workspace's settlement events from `GET /api/v2/builders/events` (docs/api/builders.md, "Events and
 * webhooks"), as an async iterator that never ends by itself: a dropped connection, a stream the server
 * ended (a host shutting down), a network failure, a 5xx or a 429 are followed by a reconnection after a
 * backoff (or the `Retry-After` sent), resuming with `Last-Event-ID` after the last event yielded, so
 * nothing is missed or repeated. Without a `lastEventId` or `since`, it starts with new events; a
 * reconnection before any event arrived asks for the events since the first connection. Any other 4xx
 * (401, 403, 409 EVENT_ID_UNKNOWN) throws a {@link JunctionApiError}.
 */
export async function* streamEvents(
  connection: EventStreamConnection,
  options: EventsOptions = {},
): AsyncGenerator<SettlementEvent, void, undefined> {
  const { signal } = options;
  const backoff = { initialMs: 500, maxMs: 30_000, ...options.backoff };
  const position = {
    lastEventId: options.lastEventId,
    since: options.since === undefined ? undefined : unixSeconds(options.since),
  };
  const firstConnection = Math.floor(Date.now() / 1000);
  let failures = 0;
  while (!signal?.aborted) {
    const open = new AbortController();
    let waitMs: number;
    try {
      const answer = await connect(connection, eventsRequest(connection, options, position, open.signal));
      if (answer.kind === "retry") {
        waitMs = answer.retryAfterMs ?? delay(backoff, failures++);
      } else {
        const parser = createSseParser();
        for await (const message of sseMessages(answer.body, parser)) {
          const event = JSON.parse(message.data) as SettlementEvent;
          position.lastEventId = message.id ?? event.id;
          failures = 0;
          yield event;
        }
        // The stream ended or dropped: reconnect, at once unless it keeps happening before any event.
        waitMs = parser.retryMs ?? (failures === 0 ? 0 : delay(backoff, failures - 1));
        failures++;
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    } finally {
      open.abort();
    }
    if (position.lastEventId === undefined) position.since ??= firstConnection;
    await pause(waitMs, signal);
  }
}

type Answer = { kind: "stream"; body: ReadableStream<Uint8Array> } | { kind: "retry"; retryAfterMs?: number };

/**
 * One connection attempt: the stream, or a retry for a network failure, a 5xx or a 429 (with the
 * `Retry-After` sent); any other answer throws a {@link JunctionApiError}.
 */
async function connect(connection: EventStreamConnection, request: Request): Promise<Answer> {
  let response: Response;
  try {
    response = await connection.fetch(request);
  } catch (error) {
    // fetch rejects with a TypeError when the network fails; anything else is not ours to retry.
    if (error instanceof TypeError) return { kind: "retry" };
    throw error;
  }
  if (response.status === 200 && response.body) return { kind: "stream", body: response.body };
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const retryAfter = response.headers.get("retry-after");
    return retryAfter !== null && /^[0-9]+$/.test(retryAfter)
      ? { kind: "retry", retryAfterMs: Number(retryAfter) * 1000 }
      : { kind: "retry" };
  }
  throw new JunctionApiError(response, await errorBody(response));
}

/** The messages of one connection's body, until it ends or fails (a dropped connection ends it too). */
async function* sseMessages(body: ReadableStream<Uint8Array>, parser: SseParser) {
  const reader = body.getReader();
  // One decoder per connection, streaming: a UTF-8 character cut between two chunks is joined.
  const decoder = new TextDecoder();
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      return; // the connection dropped: the caller reconnects and resumes
    }
    if (chunk.done) return;
    yield* parser.push(decoder.decode(chunk.value, { stream: true }));
  }
}

function eventsRequest(
  connection: EventStreamConnection,
  options: EventsOptions,
  position: { lastEventId: string | undefined; since: number | undefined },
  open: AbortSignal,
): Request {
  const url = new URL(EVENTS_PATH, connection.baseUrl);
  if (options.types && options.types.length > 0) url.searchParams.set("types", options.types.join(","));
  if (position.since !== undefined && position.lastEventId === undefined)
    url.searchParams.set("since", String(position.since));
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (connection.apiKey) headers["x-api-key"] = connection.apiKey;
  if (position.lastEventId !== undefined) headers["last-event-id"] = position.lastEventId;
  const signal = options.signal ? AbortSignal.any([open, options.signal]) : open;
  return new Request(url, { headers, signal });
}

function unixSeconds(time: number | Date): number {
  return typeof time === "number" ? Math.floor(time) : Math.floor(time.getTime() / 1000);
}

/** `initialMs` doubled per failure, at most `maxMs`, with jitter (half to all of it) so clients spread out. */
function delay(backoff: { initialMs: number; maxMs: number }, failures: number): number {
  const full = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures, 30));
  return Math.round(full * (0.5 + Math.random() / 2));
}

/** The error body if it is JSON (Junction's error body), else nothing: the error then says `HTTP_<status>`. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}
