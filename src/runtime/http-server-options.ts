import type { ServerOptions } from "node:http";

/**
 * Node HTTP server limits of both listeners, against clients that hold connections open without finishing
 * (slowloris): all headers within 10 s, the whole request within 30 s, an idle keep-alive connection closed
 * after 5 s, checked every second; the request line and headers at most 16 KiB (node's default, stated so
 * the 431 answer can name it). Bodies are capped separately (64 KiB, create-app.ts).
 */
export const HTTP_SERVER_OPTIONS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxHeaderSize: 16_384,
} satisfies ServerOptions;
