import { createServer, type Server } from "node:http";

export type ProxyMode =
  | { kind: "pass" }
  | { kind: "delay"; ms: number }
  | { kind: "http-error"; status: number }
  | { kind: "rpc-error"; code: number }
  /** Drops the connection without an answer, as a severed link to the node does (after `ms`, if given). */
  | { kind: "cut"; ms?: number }
  /**
   * Refuses the calls `refuse` picks, as node software does (a JSON-RPC error, or an HTTP status); forwards
   * the others. Single calls only (viem sends log reads one by one).
   */
  | {
      kind: "refuse";
      refuse: (
        method: string,
        params: unknown[],
      ) => { code: number; message: string } | { status: number } | undefined;
    }
  /** Forwards, then replaces a call's result: a node answering what a real one may (a pending block, a zero price). */
  | { kind: "rewrite"; rewrite: (method: string, params: unknown[], result: unknown) => unknown };

/**
 * A real JSON-RPC endpoint in front of a node, standing in for a third-party RPC provider whose latency and
 * failures a test must control: it forwards to `upstream` after an optional delay, or fails with an HTTP
 * status or a JSON-RPC error, or drops the connection. It counts the calls it receives, by method.
 */
export type RpcProxy = {
  url: string;
  mode: ProxyMode;
  calls: string[];
  close: () => Promise<void>;
};

export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: "", mode: { kind: "pass" }, calls: [], close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    type Call = { id: number; method: string; params?: unknown[] };
    const parsed = JSON.parse(body) as Call | Call[];
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) proxy.calls.push(call.method);
    const mode = proxy.mode;
    if (mode.kind === "delay" || mode.kind === "cut")
      await new Promise((resolve) => setTimeout(resolve, mode.ms ?? 0));
    if (mode.kind === "cut") {
      req.socket.destroy();
      return;
    }
    if (mode.kind === "http-error") {
      res.writeHead(mode.status).end("upstream unavailable");
      return;
    }
    if (mode.kind === "rpc-error" && !Array.isArray(parsed)) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", id: parsed.id, error: { code: mode.code, message: "injected" } }),
      );
      return;
    }
    if (mode.kind === "refuse" && !Array.isArray(parsed)) {
      const refusal = mode.refuse(parsed.method, parsed.params ?? []);
      if (refusal && "status" in refusal) {
        res.writeHead(refusal.status).end("refused");
        return;
      }
      if (refusal) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, error: refusal }));
        return;
      }
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, { "content-type": "application/json" });
    if (mode.kind !== "rewrite") {
      res.end(await answer.text());
      return;
    }
    type Reply = { id: number; result?: unknown };
    const replies = (await answer.json()) as Reply | Reply[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const rewritten = (Array.isArray(replies) ? replies : [replies]).map((reply) => {
      const call = calls.find((c) => c.id === reply.id);
      return call && "result" in reply
        ? { ...reply, result: mode.rewrite(call.method, call.params ?? [], reply.result) }
        : reply;
    });
    res.end(JSON.stringify(Array.isArray(replies) ? rewritten : rewritten[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
