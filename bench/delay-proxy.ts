import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { callsRefusedByLimits, type RpcProxy, refusedByLimits } from "../test/rpc-proxy.ts";

export type ProxyCount = { requests: number; roundTrips: number };

type Call = { id: number; method: string; params?: unknown[] };

/**
 * A JSON-RPC forwarder on loopback that holds every HTTP request `delayMs` before passing it to the node,
 * as a hosted RPC provider's network distance would: one round trip to the node costs at least `delayMs`.
 * Batches and single calls alike; the answer is relayed as the node gave it, or refused as a hosted node
 * with `limits` would (batches refused or capped: test/rpc-proxy.ts). It counts what it receives, so a
 * benchmark can compare versions of the service that count nothing themselves.
 */
export async function startDelayProxy(
  upstream: string,
  delayMs: number,
  limits: RpcProxy["limits"] = {},
): Promise<{ url: string; counted: () => ProxyCount; close: () => Promise<void> }> {
  let count: ProxyCount = { requests: 0, roundTrips: 0 };
  let inFlight = 0;
  const server = createServer(async (req, res) => {
    count.requests += 1;
    if (inFlight === 0) count.roundTrips += 1;
    inFlight += 1;
    res.on("close", () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const body = Buffer.concat(chunks);
    const parsed = JSON.parse(body.toString("utf8")) as Call | Call[];
    const refusal = refusedByLimits(limits, body.length, parsed);
    if (refusal) {
      res.writeHead(refusal.status, { "content-type": "application/json" }).end(JSON.stringify(refusal.body));
      return;
    }
    // Calls a limit refuses alone (a log range too wide) are answered here; the rest go to the node.
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const refused = callsRefusedByLimits(limits, calls);
    if (refused.size > 0) {
      const forwarded = calls.filter((call) => !refused.has(call.id));
      const replies = (
        forwarded.length > 0
          ? await (
              await fetch(upstream, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify(forwarded),
              })
            ).json()
          : []
      ) as { id: number }[];
      const answers = calls.map((call) =>
        refused.has(call.id)
          ? { jsonrpc: "2.0", id: call.id, error: refused.get(call.id) }
          : replies.find((reply) => reply.id === call.id),
      );
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      return;
    }
    try {
      const answer = await fetch(upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** What reached the node since the last call: HTTP requests, and busy periods (round trips). */
    counted: () => {
      const counted = count;
      count = { requests: 0, roundTrips: 0 };
      return counted;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
