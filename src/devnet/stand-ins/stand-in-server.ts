import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Fault modes every stand-in can be switched into (for tests, on the devnet only), so the service's handling
 * of a misbehaving provider is exercised against a real HTTP server:
 * - `decline`: the provider's own "no route" answer;
 * - `slow`: answers only after {@link SLOW_MS}, past any provider deadline;
 * - `5xx`: 502 with a body that must never reach a client;
 * - `malformed`: 200 with a body that is not JSON.
 * A stand-in may add modes of its own, which its handler acts on.
 */
export const COMMON_FAULTS = ["none", "decline", "slow", "5xx", "malformed"] as const;

export const SLOW_MS = 12_000;

/** What a 5xx fault answers: a remote body with a would-be secret, to prove it is never passed on. */
export const FAULT_BODY = '{"error":"upstream exploded","apiKey":"stand-in-secret-0000"}';

export type StandInAnswer = { status: number; body: unknown };

/** One request as a handler sees it: the query, the JSON body (POST), and the fault mode switched on. */
export type StandInRequest = { query: URLSearchParams; body: unknown; fault: string };

export type StandInHandler = (request: StandInRequest) => StandInAnswer | Promise<StandInAnswer>;

export type StandIn = { url: string; close: () => Promise<void> };

/**
 * A loopback HTTP server for one stand-in: each `"GET /path"` or `"POST /path"` in `routes` answers through
 * its handler unless a common fault is switched on (`decline` answers `declined`); `POST /devnet/fault` with
 * `{"mode": <mode>, "times"?: n}` switches a fault on for the next `n` requests (all, when omitted), and
 * `{"mode": "none"}` clears it. `faults` lists the stand-in's own modes, handed to its handlers.
 */
export async function startStandIn(options: {
  routes: Record<string, StandInHandler>;
  declined: StandInAnswer;
  faults?: readonly string[];
  host?: string;
}): Promise<StandIn> {
  const host = options.host ?? "127.0.0.1";
  const modes: readonly string[] = [...COMMON_FAULTS, ...(options.faults ?? [])];
  let fault: { mode: string; remaining: number } = { mode: "none", remaining: 0 };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const route = `${request.method} ${url.pathname}`;
    readJson(request)
      .then(
        async (body) => {
          if (route === "POST /devnet/fault") {
            const mode = (body as { mode?: unknown })?.mode;
            const times = (body as { times?: unknown })?.times;
            if (!modes.includes(mode as string) || (times !== undefined && !Number.isInteger(times)))
              return send(response, 400, { message: `mode must be one of ${modes.join(", ")}` });
            fault = {
              mode: mode as string,
              remaining: (times as number | undefined) ?? Number.POSITIVE_INFINITY,
            };
            return send(response, 200, { mode, times: times ?? null });
          }
          const handler = options.routes[route];
          if (!handler) return send(response, 404, { message: "Not Found" });
          const mode = fault.remaining > 0 ? fault.mode : "none";
          if (mode !== "none" && --fault.remaining <= 0) fault = { mode: "none", remaining: 0 };
          const answer = () => Promise.resolve(handler({ query: url.searchParams, body, fault: mode }));
          switch (mode) {
            case "decline":
              return send(response, options.declined.status, options.declined.body);
            case "5xx":
              response.writeHead(502, { "content-type": "application/json" }).end(FAULT_BODY);
              return;
            case "malformed":
              response.writeHead(200, { "content-type": "application/json" }).end('{"amountOut": 12, <html>');
              return;
            case "slow": {
              const timer = setTimeout(async () => {
                const { status, body: out } = await answer();
                send(response, status, out);
              }, SLOW_MS);
              response.on("close", () => clearTimeout(timer));
              return;
            }
            default: {
              const { status, body: out } = await answer();
              return send(response, status, out);
            }
          }
        },
        () => send(response, 400, { message: "body must be JSON" }),
      )
      .catch(() => send(response, 500, { message: "stand-in failed" }));
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
      if (text.length > 65_536) request.destroy();
    });
    request.on("end", () => {
      try {
        resolve(text === "" ? undefined : JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
    request.on("error", reject);
  });
}
