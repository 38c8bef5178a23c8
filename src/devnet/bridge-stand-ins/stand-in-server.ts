import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Fault modes a stand-in can be switched into (for tests, on the devnet only), so the service's handling of
 * a misbehaving provider is exercised against a real HTTP server:
 * - `decline`: the provider's own "no route" answer;
 * - `slow`: answers only after {@link SLOW_MS}, past any provider deadline;
 * - `5xx`: 502 with a body that must never reach a client;
 * - `malformed`: 200 with a body that is not JSON.
 */
export const FAULT_MODES = ["none", "decline", "slow", "5xx", "malformed"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export const SLOW_MS = 10_000;

/** What a 5xx fault answers: a remote body with a would-be secret, to prove it is never passed on. */
export const FAULT_BODY = '{"error":"upstream exploded","apiKey":"stand-in-secret-0000"}';

export type StandInAnswer = { status: number; body: unknown };

export type StandIn = { url: string; close: () => Promise<void> };

/**
 * A loopback HTTP server for one stand-in: `GET <path>` answers through `handle` (a query in, a JSON answer
 * out) unless a fault is switched on; `POST /devnet/fault` with `{"mode": <FaultMode>, "times"?: n}`
 * switches a fault on for the next `n` requests (all, when omitted); `{"mode": "none"}` clears it.
 */
export async function startStandIn(
  path: string,
  handle: (query: URLSearchParams) => StandInAnswer,
  declined: StandInAnswer,
  host = "127.0.0.1",
): Promise<StandIn> {
  let fault: { mode: FaultMode; remaining: number } = { mode: "none", remaining: 0 };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    if (request.method === "POST" && url.pathname === "/devnet/fault") {
      readJson(request).then(
        (body) => {
          const mode = (body as { mode?: unknown })?.mode;
          const times = (body as { times?: unknown })?.times;
          if (!FAULT_MODES.includes(mode as FaultMode) || (times !== undefined && !Number.isInteger(times)))
            return send(response, 400, { message: `mode must be one of ${FAULT_MODES.join(", ")}` });
          fault = {
            mode: mode as FaultMode,
            remaining: (times as number | undefined) ?? Number.POSITIVE_INFINITY,
          };
          send(response, 200, { mode, times: times ?? null });
        },
        () => send(response, 400, { message: "body must be JSON" }),
      );
      return;
    }
    if (request.method !== "GET" || url.pathname !== path)
      return send(response, 404, { message: "Not Found" });
    const mode = fault.remaining > 0 ? fault.mode : "none";
    if (mode !== "none" && --fault.remaining <= 0) fault = { mode: "none", remaining: 0 };
    switch (mode) {
      case "decline":
        return send(response, declined.status, declined.body);
      case "5xx":
        response.writeHead(502, { "content-type": "application/json" }).end(FAULT_BODY);
        return;
      case "malformed":
        response.writeHead(200, { "content-type": "application/json" }).end('{"toAmount": 12, <html>');
        return;
      case "slow": {
        const timer = setTimeout(() => {
          const answer = handle(url.searchParams);
          send(response, answer.status, answer.body);
        }, SLOW_MS);
        response.on("close", () => clearTimeout(timer));
        return;
      }
      default: {
        const answer = handle(url.searchParams);
        return send(response, answer.status, answer.body);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.writableEnded) return;
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 4096) request.destroy();
    });
    request.on("end", () => {
      try {
        resolve(JSON.parse(text || "{}"));
      } catch (error) {
        reject(error);
      }
    });
    request.on("error", reject);
  });
}
