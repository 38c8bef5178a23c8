import { createServer, type Server } from "node:http";

export type ProxyMode =
  | { kind: "pass" }
  | { kind: "delay"; ms: number }
  | { kind: "http-error"; status: number }
  | { kind: "rpc-error"; code: number }
  /** Drops the connection without an answer, as a severed link to the node does (after `ms`, if given). */
  | { kind: "cut"; ms?: number }
  /**
   * Refuses the calls `refuse` picks, as node software does: a JSON-RPC error answers that call alone (in a
   * batch, its own entry; the others are forwarded), an HTTP status answers the whole request it came in.
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
 * status or a JSON-RPC error, or drops the connection. It counts the calls it receives, by method, and the
 * HTTP requests that carried them (a JSON-RPC batch is one request).
 */
export type RpcProxy = {
  url: string;
  mode: ProxyMode;
  /**
   * A hosted node's limits, applied before `mode`: batches `refused` (HTTP 400 `-32600` to any JSON array)
   * or capped at N calls (one `-32005` error object answering a longer array), and request bodies capped at
   * `bodyBytes` (HTTP 413), and a rate limit's burst: the next `throttle.times` requests answered HTTP 429,
   * with `Retry-After: throttle.retryAfter` when given. Requests refused so are counted in `refused`.
   * Per call: `eth_getLogs` over more than `logs.blocks` blocks refused (`-32005 query exceeds max block
   * range`), or answering more than `logs.results` logs refused (`-32005 query returned more than N
   * results`), and the `missing` methods answered `-32601` (counted in `refusedCalls`).
   */
  limits: {
    batches?: "refused" | number;
    bodyBytes?: number;
    throttle?: { times: number; retryAfter?: number };
    logs?: { blocks?: number; results?: number };
    missing?: string[];
  };
  refusedCalls: number;
  refused: number;
  calls: string[];
  requests: number;
  close: () => Promise<void>;
};

export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const proxy: RpcProxy = {
    url: "",
    mode: { kind: "pass" },
    limits: {},
    refused: 0,
    refusedCalls: 0,
    calls: [],
    requests: 0,
    close: async () => {},
  };
  type Call = { id: number; method: string; params?: unknown[] };
  type Reply = { id: number; result?: unknown };
  /** The node's answers to `calls`, sent as one batch. */
  const forward = async (calls: Call[]): Promise<Reply[]> => {
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(calls),
    });
    return (await answer.json()) as Reply[];
  };
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as Call | Call[];
    proxy.requests += 1;
    const throttle = proxy.limits.throttle;
    if (throttle && throttle.times > 0) {
      throttle.times -= 1;
      proxy.refused += 1;
      const headers = throttle.retryAfter === undefined ? {} : { "retry-after": String(throttle.retryAfter) };
      res.writeHead(429, headers).end("Too Many Requests");
      return;
    }
    const refusal = refusedByLimits(proxy.limits, body.length, parsed);
    if (refusal) {
      proxy.refused += 1;
      res.writeHead(refusal.status, { "content-type": "application/json" }).end(JSON.stringify(refusal.body));
      return;
    }
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
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    // Calls answered here with a JSON-RPC error; the rest are forwarded (a batch is answered as one array).
    const refused = callsRefusedByLimits(proxy.limits, calls);
    proxy.refusedCalls += refused.size;
    if (mode.kind === "rpc-error")
      for (const call of calls) refused.set(call.id, { code: mode.code, message: "injected" });
    if (mode.kind === "refuse")
      for (const call of calls) {
        const refusal = mode.refuse(call.method, call.params ?? []);
        if (refusal && "status" in refusal) {
          res.writeHead(refusal.status).end("refused");
          return;
        }
        if (refusal) refused.set(call.id, refusal);
      }
    if (refused.size > 0 || proxy.limits.logs?.results !== undefined) {
      const forwarded = calls.filter((call) => !refused.has(call.id));
      const replies = forwarded.length > 0 ? await forward(forwarded) : [];
      const results = proxy.limits.logs?.results;
      for (const reply of replies) {
        const call = calls.find((c) => c.id === reply.id);
        if (results === undefined || call?.method !== "eth_getLogs") continue;
        if (!Array.isArray(reply.result) || reply.result.length <= results) continue;
        refused.set(reply.id, { code: -32005, message: `query returned more than ${results} results` });
        proxy.refusedCalls += 1;
        delete reply.result;
      }
      const answers = calls.map((call) =>
        refused.has(call.id)
          ? { jsonrpc: "2.0", id: call.id, error: refused.get(call.id) }
          : replies.find((reply) => reply.id === call.id),
      );
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      return;
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
    const replies = (await answer.json()) as Reply | Reply[];
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

/** The calls a node with these limits answers with an error of their own (the wording of common node software). */
export function callsRefusedByLimits(
  limits: RpcProxy["limits"],
  calls: { id: number; method: string; params?: unknown[] }[],
): Map<number, { code: number; message: string }> {
  const refused = new Map<number, { code: number; message: string }>();
  for (const call of calls) {
    if (limits.missing?.includes(call.method))
      refused.set(call.id, {
        code: -32601,
        message: `the method ${call.method} does not exist/is not available`,
      });
    const blocks = limits.logs?.blocks;
    if (call.method !== "eth_getLogs" || blocks === undefined) continue;
    const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
    if (!filter.fromBlock?.startsWith("0x") || !filter.toBlock?.startsWith("0x")) continue;
    if (BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n > BigInt(blocks))
      refused.set(call.id, { code: -32005, message: `query exceeds max block range ${blocks}` });
  }
  return refused;
}

/** How a node with these limits answers a request it will not take (the wording of common node software). */
export function refusedByLimits(
  limits: RpcProxy["limits"],
  bytes: number,
  parsed: unknown,
): { status: number; body: unknown } | undefined {
  const error = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });
  if (limits.bodyBytes !== undefined && bytes > limits.bodyBytes)
    return { status: 413, body: error(-32600, `request body of ${bytes} bytes exceeds ${limits.bodyBytes}`) };
  if (!Array.isArray(parsed) || limits.batches === undefined) return undefined;
  if (limits.batches === "refused")
    return { status: 400, body: error(-32600, "batch requests are not supported") };
  if (parsed.length > limits.batches)
    return {
      status: 200,
      body: error(-32005, `batch of ${parsed.length} exceeds the limit of ${limits.batches}`),
    };
  return undefined;
}
