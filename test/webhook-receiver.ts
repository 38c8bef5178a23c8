import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedDelivery = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A webhook receiver on loopback, as a builder's server would run one: it records every delivery (raw body
 * and headers) and answers each with the next status of `answers` (then 200).
 */
export async function startWebhookReceiver(answers: number[] = []) {
  const received: ReceivedDelivery[] = [];
  const queue = [...answers];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const status = queue.shift() ?? 200;
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status === 200 ? "ok" : `failing on purpose (${status})`);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Makes the next deliveries answer these statuses. */
    answer: (...statuses: number[]) => queue.push(...statuses),
    /** Waits until `check` holds over what was received, up to `timeoutMs`. */
    async until(check: (received: ReceivedDelivery[]) => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!check(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
