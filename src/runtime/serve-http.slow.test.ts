import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerApp } from "../api/partner-app.ts";
import { ErrorResponseSchema } from "../api/schemas/error.ts";
import { type HttpListener, serveHttp } from "./serve-http.ts";

/** A real listener as the service opens it (the partner host's app: no chain or database behind it). */
let server: HttpListener;
let origin: string;
let port: number;
const unexpected: unknown[] = [];
beforeAll(async () => {
  const app = createPartnerApp({ latestBlock: async () => 42n, logError: (error) => unexpected.push(error) });
  // A route that reads its body, to show a read body keeps the connection alive.
  app.post("/echo", async (c) => c.json(await c.req.json()));
  server = await new Promise((resolve) => {
    const s = serveHttp({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw bytes on a fresh connection; resolves with everything the server wrote before closing it. */
function rawExchange(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(bytes);
  });
}

/** The status, headers and JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) as unknown };
}

describe("an HTTP listener of the service", () => {
  it("closes the connection of an answer given before the body was read, so a pooled client loses nothing", async () => {
    // node's global fetch pools connections (undici): without `Connection: close` the next request rides the
    // socket the server is still draining the 2 MB into, and fails when the server drops it.
    const big = JSON.stringify({ action: "x".repeat(2 * 1024 * 1024) });
    const refused = await fetch(`${origin}/quote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(refused.status).toBe(413);
    expect(ErrorResponseSchema.parse(await refused.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const health = await fetch(`${origin}/healthz`);
      await health.arrayBuffer();
      const options = await fetch(`${origin}/openapi.json`, { method: "OPTIONS" });
      await options.arrayBuffer();
      statuses.push(health.status, options.status);
    }
    expect(statuses).toEqual(Array.from({ length: 5 }, () => [200, 404]).flat());
    expect(refused.headers.get("connection")).toBe("close");
    expect(unexpected).toEqual([]);
  });

  it("keeps the connection of an answer whose body was read", async () => {
    const echoed = await fetch(`${origin}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await echoed.json()).toEqual({ a: 1 });
    expect(echoed.headers.get("connection")).toBe("keep-alive");
  });

  it.each([
    ["a header name with a control byte", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-B\x01d: y\r\n\r\n", 400],
    ["a header value with a NUL byte", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\x00b\r\n\r\n", 400],
    ["an unknown method", "FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400],
    ["a target without a leading slash", "GET healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400],
    ["not HTTP at all", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400],
    ["20 KB of headers", `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
  ])("answers %s in the error body, then closes", async (_, request, status) => {
    const answer = parseAnswer(await rawExchange(Buffer.from(request, "latin1")));
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("connection")).toBe("close");
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const { error } = ErrorResponseSchema.parse(answer.body);
    expect(error.code).toBe(status === 431 ? "HEADERS_TOO_LARGE" : "INVALID_REQUEST");
    expect(JSON.stringify(answer.body)).not.toMatch(/healthz|FROB|aaaa/);
  });
});
