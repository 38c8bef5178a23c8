import { describe, expect, it } from "vitest";
import { createSseParser, type SseMessage } from "./sse-parser.ts";

const STREAM =
  ": connected\n\n" +
  'id: evt_1\nevent: settlement.confirming\ndata: {"id":"evt_1"}\n\n' +
  ": heartbeat\n\n" +
  'id: evt_2\nevent: settlement.finalized\ndata: {"id":\ndata: "evt_2"}\n\n';

const EXPECTED: SseMessage[] = [
  { id: "evt_1", event: "settlement.confirming", data: '{"id":"evt_1"}' },
  { id: "evt_2", event: "settlement.finalized", data: '{"id":\n"evt_2"}' },
];

const feed = (chunks: string[]) => {
  const parser = createSseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
};

describe("the SSE parser", () => {
  it("reads id, event and multi-line data, skipping comments", () => {
    expect(feed([STREAM])).toEqual(EXPECTED);
  });

  it("gives the same messages whatever the chunk boundaries", () => {
    // Every two-way cut, and one character at a time.
    for (let cut = 0; cut <= STREAM.length; cut++)
      expect(feed([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(EXPECTED);
    expect(feed([...STREAM])).toEqual(EXPECTED);
  });

  it("accepts CRLF and CR line ends, a CRLF cut between chunks counting once", () => {
    const crlf = STREAM.replaceAll("\n", "\r\n");
    for (let cut = 0; cut <= crlf.length; cut++)
      expect(feed([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(EXPECTED);
    expect(feed([STREAM.replaceAll("\n", "\r")])).toEqual(EXPECTED);
    // "\r" then "\n" in the next chunk is one line end, not an empty line dispatching early.
    expect(feed(["data: a\r", "\ndata: b\r\n\r\n"])).toEqual([
      { id: undefined, event: "message", data: "a\nb" },
    ]);
  });

  it("keeps an unfinished message until its blank line, and never dispatches one without data", () => {
    const parser = createSseParser();
    expect(parser.push("id: evt_9\nevent: settlement.reorged\ndata: x\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "evt_9", event: "settlement.reorged", data: "x" }]);
    // An id with no data moves the last id on without a message; the event name does not carry over.
    expect(parser.push("id: evt_10\n\ndata: y\n\n")).toEqual([{ id: "evt_10", event: "message", data: "y" }]);
  });

  it("follows the field rules: one space dropped, no colon, BOM, retry", () => {
    const parser = createSseParser();
    expect(parser.push("\uFEFFdata:  two spaces\ndata\ndata:x\nretry: 2500\nunknown: z\n\n")).toEqual([
      { id: undefined, event: "message", data: " two spaces\n\nx" },
    ]);
    expect(parser.retryMs).toBe(2500);
  });
});
