import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest } from "../rpc-recorder.ts";

export type RequestTimeline = {
  url: string;
  /** Every HTTP request the service sent, with when it was in flight (performance.now ms). */
  requests: RecordedRequest[];
  close: () => Promise<void>;
};

/**
 * A pass-through in front of the counting proxy that notes when each of the service's HTTP requests to the
 * node started and ended, so a quote's round trips can be counted as the busy periods of its window
 * (bench/rpc-recorder.ts, `roundTrips`), as the latency benchmarks count them inside the process. The
 * service is a child process here, so the timeline is taken on the wire instead.
 */
export async function startRequestTimeline(upstream: string): Promise<RequestTimeline> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const entry: RecordedRequest = {
      method: "http",
      to: undefined,
      start: performance.now(),
      end: Number.NaN,
    };
    requests.push(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const answer = await fetch(upstream, {
        method: "POST",
        headers: { "content-type": req.headers["content-type"] ?? "application/json" },
        body: Buffer.concat(chunks),
      });
      const headers: Record<string, string> = {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      };
      const retryAfter = answer.headers.get("retry-after");
      if (retryAfter) headers["retry-after"] = retryAfter;
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      // The counting proxy dropped the connection (a cut); the service sees the same.
      req.socket.destroy();
    } finally {
      entry.end = performance.now();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
