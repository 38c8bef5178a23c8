import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpListener, serveHttp } from "./serve-http.ts";

/** The listeners' limits against clients that never finish: each connection is closed by the server. */
let server: HttpListener;
let port: number;
beforeAll(async () => {
  const app = new Hono().get("/", (c) => c.text("ok")).post("/", async (c) => c.text(await c.req.text()));
  server = await new Promise((resolve) => {
    const s = serveHttp({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Opens a raw connection, sends `parts` one by one a second apart; resolves with what came back once closed. */
function slowClient(parts: string[]): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("close", () => resolve(received));
    socket.on("error", () => {});
    let i = 0;
    const timer = setInterval(() => {
      if (i < parts.length && !socket.destroyed) socket.write(parts[i++]!);
      else clearInterval(timer);
    }, 1_000);
    socket.on("close", () => clearInterval(timer));
  });
}

describe("HTTP server limits", () => {
  it("closes a connection whose headers never finish", async () => {
    const dribble = Array.from({ length: 60 }, (_, i) =>
      i === 0 ? "GET / HTTP/1.1\r\nHost: x\r\n" : `X-${i}: y\r\n`,
    );
    expect(await slowClient(dribble)).toMatch(/^(HTTP\/1\.1 408|$)/);
  }, 30_000);

  it("closes a connection whose body never finishes", async () => {
    const head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n";
    const dribble = [head, ...Array.from({ length: 60 }, () => "a")];
    expect(await slowClient(dribble)).toMatch(/^(HTTP\/1\.1 408|$)/);
  }, 45_000);

  it("closes an idle keep-alive connection after answering", async () => {
    const answer = await slowClient(["GET / HTTP/1.1\r\nHost: x\r\n\r\n"]);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  }, 30_000);
});
