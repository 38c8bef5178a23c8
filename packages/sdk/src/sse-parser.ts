/** One Server-Sent Events message: `id` is the last id the stream set (carried over from earlier messages). */
export type SseMessage = { id: string | undefined; event: string; data: string };

/**
 * A small Server-Sent Events parser (the WHATWG "event stream interpretation", the parts a client needs):
 * fed text in chunks cut anywhere, it returns the messages each chunk completes. Lines end in LF, CRLF or
 * CR (a CRLF cut between two chunks counts once); `data:` lines join with LF; a line starting with `:` is a
 * comment (heartbeats); one space after the colon is dropped; a message without data is not dispatched;
 * `retry:` sets {@link SseParser.retryMs}.
 */
export function createSseParser() {
  let buffer = "";
  let skipLf = false;
  let first = true;
  let lastId: string | undefined;
  let event = "";
  let data: string[] = [];
  const parser = {
    /** The reconnection delay the stream asked for with `retry:`, if any. */
    retryMs: undefined as number | undefined,
    push(chunk: string): SseMessage[] {
      let text = chunk;
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (text.length === 0) return [];
      if (skipLf && text.startsWith("\n")) text = text.slice(1);
      skipLf = false;
      buffer += text;
      const messages: SseMessage[] = [];
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        const line = buffer.slice(0, end);
        const crlf = buffer[end] === "\r" && buffer[end + 1] === "\n";
        // A CR as the buffer's last character may be half of a CRLF: the next chunk's LF is dropped.
        if (buffer[end] === "\r" && end + 1 === buffer.length) skipLf = true;
        buffer = buffer.slice(end + (crlf ? 2 : 1));
        const message = interpret(line);
        if (message) messages.push(message);
      }
      return messages;
    },
  };

  function interpret(line: string): SseMessage | undefined {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) lastId = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) parser.retryMs = Number(value);
    return undefined;
  }

  function dispatch(): SseMessage | undefined {
    const message =
      data.length > 0 ? { id: lastId, event: event || "message", data: data.join("\n") } : undefined;
    event = "";
    data = [];
    return message;
  }

  return parser;
}

export type SseParser = ReturnType<typeof createSseParser>;
