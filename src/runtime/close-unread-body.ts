import type { IncomingHttpHeaders } from "node:http";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";

/** A fetch callback as `@hono/node-server` calls it, with the node request and response beside it. */
export type NodeFetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/**
 * Answers with `Connection: close` whenever the response is ready before the request body was read to its
 * end (413 before parsing, 401 before the handler, 404 on an unknown POST): `@hono/node-server` drains such
 * a body for at most 500 ms and then destroys the socket, so a keep-alive answer would let a pooled client
 * reuse a connection that is about to drop and lose its next request (docs/rules.md, ours: connections).
 */
export function closeWhenBodyUnread(fetch: NodeFetch): NodeFetch {
  return async (request, env) => {
    const response = await fetch(request, env);
    if (bodyUnread(env.incoming)) response.headers.set("Connection", "close");
    return response;
  };
}

/** A request with a body (a positive Content-Length, or chunked) that nobody has read to its end. */
function bodyUnread(incoming: { readableEnded: boolean; headers: IncomingHttpHeaders }): boolean {
  if (incoming.readableEnded) return false;
  const length = incoming.headers["content-length"];
  return incoming.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
