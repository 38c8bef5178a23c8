import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { answerClientError } from "./client-error.ts";
import { closeWhenBodyUnread, type NodeFetch } from "./close-unread-body.ts";
import { HTTP_SERVER_OPTIONS } from "./http-server-options.ts";

export type HttpListener = ReturnType<typeof serve>;

/**
 * One HTTP listener of the service (either host): node's limits against slow clients, `Connection: close`
 * on an answer given before the body was read, and parser-level failures answered in the error body
 * (docs/rules.md, ours: connections).
 */
export function serveHttp(
  options: { fetch: NodeFetch; hostname: string; port: number },
  onListening: (info: AddressInfo) => void,
): HttpListener {
  const { fetch, hostname, port } = options;
  const server = serve(
    { fetch: closeWhenBodyUnread(fetch), hostname, port, serverOptions: HTTP_SERVER_OPTIONS },
    onListening,
  );
  server.on("clientError", answerClientError);
  return server;
}
