import type { Server } from "node:http";
import type { ServerType } from "@hono/node-server";

/**
 * Closes a listener: no new connections, idle keep-alive ones closed at once, and connections still
 * answering a request cut after `graceMs` (so a stop is bounded whatever a request or a client does).
 */
export function closeGracefully(server: ServerType, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => (server as Server).closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
  });
}
