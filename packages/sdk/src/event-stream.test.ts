import { describe, expect, it } from "vitest";
import { JunctionApiError } from "./errors.ts";
import { type EventsOptions, streamEvents } from "./event-stream.ts";
import type { SettlementEvent } from "./event-types.ts";

/**
 * The stream's reconnection rules against a scripted server: each connection answers with the next
 * script entry (a status, or a body of SSE text cut where the script says, optionally dropped after).
 */
type Step =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { chunks: string[]; drop?: boolean; hang?: boolean }
  | { network: true };

const message = (id: string, type = "settlement.confirming") =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type, data: { status: type.slice(11) } })}\n\n`;

function scripted(steps: Step[]) {
  const requests: Request[] = [];
  const at: number[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    at.push(Date.now());
    const step = steps.shift();
    if (!step) return new Promise<Response>(() => {}); // nothing more: the test ends the iteration
    if ("network" in step) throw new TypeError("fetch failed");
    if ("status" in step)
      return new Response(step.body ?? null, { status: step.status, headers: step.headers });
    const encoder = new TextEncoder();
    const chunks = [...step.chunks];
    // Pulled one chunk at a time, so a drop comes after the chunks were read (an error discards a queue).
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        request.signal.addEventListener("abort", () => controller.error(request.signal.reason));
      },
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
        else if (step.drop) controller.error(new TypeError("terminated"));
        else if (!step.hang) controller.close();
        else return new Promise<void>(() => {});
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, requests, at };
}

async function take(n: number, server: ReturnType<typeof scripted>, options: EventsOptions = {}) {
  const events: SettlementEvent[] = [];
  const stream = streamEvents(
    { baseUrl: "http://junction.test", apiKey: "jk_test", fetch: server.fetch },
    { backoff: { initialMs: 10, maxMs: 40 }, ...options },
  );
  for await (const event of stream) {
    events.push(event);
    if (events.length === n) break;
  }
  return events.map((event) => event.id);
}

describe("client.events() stream", () => {
  it("sends the key, types and since, then resumes after a drop with Last-Event-ID, cut anywhere", async () => {
    const server = scripted([
      { chunks: [": connected\n\n", message("evt_1"), message("evt_2").slice(0, 20)], drop: true },
      {
        chunks: [
          message("evt_2").slice(0, 7),
          message("evt_2").slice(7),
          ": heartbeat\n\n",
          message("evt_3"),
        ],
      },
    ]);
    const ids = await take(3, server, { since: 1_764_403_200, types: ["settlement.confirming"] });
    expect(ids).toEqual(["evt_1", "evt_2", "evt_3"]);
    const [first, second] = server.requests;
    expect(first!.headers.get("x-api-key")).toBe("jk_test");
    expect(first!.headers.get("last-event-id")).toBeNull();
    const url = new URL(first!.url);
    expect(url.pathname).toBe("/api/v2/builders/events");
    expect(url.searchParams.get("since")).toBe("1764403200");
    expect(url.searchParams.get("types")).toBe("settlement.confirming");
    // The half-received evt_2 is not counted: the resume starts after evt_1, and `since` is not sent.
    expect(second!.headers.get("last-event-id")).toBe("evt_1");
    expect(new URL(second!.url).searchParams.has("since")).toBe(false);
  });

  it("reconnects when the server ends the stream, from the given lastEventId", async () => {
    const server = scripted([{ chunks: [message("evt_5")] }, { chunks: [message("evt_6")] }]);
    expect(await take(2, server, { lastEventId: "evt_4" })).toEqual(["evt_5", "evt_6"]);
    expect(server.requests.map((r) => r.headers.get("last-event-id"))).toEqual(["evt_4", "evt_5"]);
  });

  it("asks for the events since its first connection when it reconnects before any event", async () => {
    const before = Math.floor(Date.now() / 1000);
    const server = scripted([{ chunks: [": connected\n\n"] }, { chunks: [message("evt_7")] }]);
    expect(await take(1, server)).toEqual(["evt_7"]);
    expect(new URL(server.requests[0]!.url).searchParams.has("since")).toBe(false);
    expect(Number(new URL(server.requests[1]!.url).searchParams.get("since"))).toBeGreaterThanOrEqual(before);
  });

  it("waits out Retry-After on 429 and 503, and backs off on network failures and 5xx", async () => {
    const server = scripted([
      { status: 429, headers: { "retry-after": "1" } },
      { network: true },
      { status: 500 },
      { status: 503, headers: { "retry-after": "1" } },
      { chunks: [message("evt_8")] },
    ]);
    expect(await take(1, server)).toEqual(["evt_8"]);
    const gaps = server.at.slice(1).map((t, i) => t - server.at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(990);
    expect(gaps[1]).toBeLessThan(500);
    expect(gaps[3]).toBeGreaterThanOrEqual(990);
  });

  it("throws JunctionApiError for 401, 403 and 409 without reconnecting", async () => {
    for (const [status, code] of [
      [401, "UNAUTHORIZED"],
      [403, "FORBIDDEN"],
      [409, "EVENT_ID_UNKNOWN"],
    ] as const) {
      const server = scripted([
        {
          status,
          body: JSON.stringify({ error: { code, message: "no" } }),
          headers: { "x-request-id": "r" },
        },
      ]);
      const error = await take(1, server, { lastEventId: "evt_gone" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JunctionApiError);
      expect(error).toMatchObject({ status, code, requestId: "r" });
      expect(server.requests).toHaveLength(1);
    }
  });

  it("ends quietly when its signal aborts, mid-stream or while waiting to reconnect", async () => {
    const controller = new AbortController();
    const server = scripted([{ chunks: [message("evt_1")], hang: true }]);
    const events: string[] = [];
    const stream = streamEvents(
      { baseUrl: "http://junction.test", apiKey: "k", fetch: server.fetch },
      { signal: controller.signal },
    );
    for await (const event of stream) {
      events.push(event.id);
      controller.abort();
    }
    expect(events).toEqual(["evt_1"]);

    const waiting = new AbortController();
    const refusing = scripted([{ status: 503, headers: { "retry-after": "60" } }]);
    const started = Date.now();
    setTimeout(() => waiting.abort(), 50);
    const rest = streamEvents(
      { baseUrl: "http://junction.test", apiKey: "k", fetch: refusing.fetch },
      { signal: waiting.signal },
    );
    for await (const _ of rest) throw new Error("no event expected");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
