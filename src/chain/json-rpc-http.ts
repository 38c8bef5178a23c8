import { custom, HttpRequestError, RpcRequestError, TimeoutError, type Transport } from "viem";
import { type NodePace, NodeThrottledError, retryAfterMs } from "./node-pace.ts";
import { PostTimeoutError, postJson } from "./post-json.ts";
import { onRequestPath } from "./request-deadline.ts";

/**
 * What one HTTP request to the node may carry: at most `calls` JSON-RPC calls in a batch (1: no batches)
 * and at most `bytes` of body (a single call larger than that still goes, alone). Set up front
 * (JUNCTION_RPC_MAX_BATCH, JUNCTION_RPC_MAX_BATCH_BYTES) and lowered by what the node refuses; kept for the
 * life of the client (one per process).
 */
export type BatchLimits = { calls: number; bytes: number };

/**
 * Defaults: a quote's calls fit one batch (32 calls), and a body stays well under what common nodes accept
 * (anvil refuses 2 MiB, geth 5 MiB by default, hosted providers often 1 to 10 MB).
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { calls: 32, bytes: 1_000_000 };

/** JSON-RPC codes a node answers for a method it does not have (EIP-1474: method not found, not supported). */
const MISSING_METHOD_CODES = new Set([-32601, -32004]);

/** A refused batch bigger than this is taken to have hit a body limit, a smaller one a call-count limit. */
const BODY_LIMIT_FLOOR_BYTES = 256 * 1024;

/** How a batch refusal changed the limits, for one log line (never a request body). */
export type BatchLimitChange = { limits: BatchLimits; message: string };

type Call = { method: string; params?: unknown };
type Pending = {
  id: number;
  /** Made on a request's behalf (a client waits), not the background's. */
  foreground: boolean;
  call: Call;
  /** The call as sent, JSON. */
  json: string;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
};
type Reply = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

/**
 * A JSON-RPC over HTTP transport shaped for the node it talks to (docs/operating.md, "Choosing a node"):
 * calls made in the same turn of the event loop travel together, cut into batches within `limits` (a single
 * call is sent as a plain object, never a one-element array, which nodes without batches refuse). A batch
 * the node refuses as a whole (HTTP 400 or 413, or one error object answering the array) is split in halves
 * and sent again, so each call still gets its own answer and no caller fails for sharing a request; the
 * refusal lowers `limits` (the call count, or the body size for a large body) for every later request and is
 * reported once through `onLearned`. Without batches each call goes concurrently on kept-alive connections:
 * a quote still costs one round trip. An HTTP 429 fails the request's calls with NodeThrottledError and
 * starts `pace`'s backoff (node-pace.ts), which also keeps the process within its request budget. Errors are viem's (HttpRequestError, RpcRequestError, TimeoutError),
 * naming the method and the endpoint's origin only: never params (calldata) or a credential in the URL.
 */
export function jsonRpcHttp(
  url: string,
  options: {
    timeoutMs: number;
    limits: BatchLimits;
    /** Rate limits and the request budget; none: every request goes at once. */
    pace?: NodePace;
    /** Sends one HTTP request (default `postJson`; the service counts them as sent). */
    post?: typeof postJson;
    onLearned?: (change: BatchLimitChange) => void;
    /** Each batch split after a refusal, and each rate limit the node answered (metrics). */
    onEvent?: (event: "split" | "throttled") => void;
    /** Told once per method the node answers it does not have (JSON-RPC -32601 or -32004). */
    onMissingMethod?: (method: string) => void;
  },
): Transport {
  const { limits, timeoutMs, pace } = options;
  const post = options.post ?? postJson;
  const target = new URL(url);
  const where = target.origin;
  let nextId = 1;
  let queue: Pending[] = [];
  const missing = new Set<string>();

  const flush = () => {
    const pending = queue;
    queue = [];
    // A request's calls and the background's travel apart: a backoff refuses the first and delays the second.
    for (const foreground of [true, false])
      for (const batch of cut(
        pending.filter((p) => p.foreground === foreground),
        limits,
      ))
        void send(batch);
  };

  /** Fails `batch` as throttled for `ms` (the node's Retry-After, or what is left of the backoff). */
  const throttle = (batch: Pending[], ms: number) => {
    const failure = new NodeThrottledError({ body: describe(batch), url: where, retryAfterMs: ms });
    for (const p of batch) p.reject(failure);
  };

  async function send(batch: Pending[]): Promise<void> {
    const single = batch.length === 1;
    const body = single ? batch[0]!.json : `[${batch.map((p) => p.json).join(",")}]`;
    const excerpt = describe(batch);
    const paused = pace ? await pace.acquire(batch[0]!.foreground) : 0;
    if (paused > 0) return throttle(batch, paused);
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      ({ status, retryAfter, text } = await post(target, body, timeoutMs));
    } catch (error) {
      const failure =
        error instanceof PostTimeoutError
          ? new TimeoutError({ body: excerpt, url: where })
          : new HttpRequestError({ body: excerpt, details: messageOf(error), url: where });
      for (const p of batch) p.reject(failure);
      return;
    }
    if (status === 429) {
      options.onEvent?.("throttled");
      return throttle(
        batch,
        pace ? pace.throttled(retryAfterMs(retryAfter)) : (retryAfterMs(retryAfter) ?? 1_000),
      );
    }
    pace?.answered();
    const parsed = parseJson(text);
    if (!single && !Array.isArray(parsed) && refusesBatch(status, parsed)) {
      learnFrom(batch.length, body.length, status === 413);
      options.onEvent?.("split");
      const half = Math.ceil(batch.length / 2);
      await Promise.all([send(batch.slice(0, half)), send(batch.slice(half))]);
      return;
    }
    if (status < 200 || status > 299 || parsed === undefined) {
      const failure = new HttpRequestError({
        body: excerpt,
        details: text.slice(0, 200),
        status,
        url: where,
      });
      for (const p of batch) p.reject(failure);
      return;
    }
    const replies = (Array.isArray(parsed) ? parsed : [parsed]) as Reply[];
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    for (const p of batch) {
      const reply = byId.get(p.id) ?? (single ? replies[0] : undefined);
      if (reply?.error) {
        if (MISSING_METHOD_CODES.has(reply.error.code) && !missing.has(p.call.method)) {
          missing.add(p.call.method);
          options.onMissingMethod?.(p.call.method);
        }
        p.reject(new RpcRequestError({ body: { method: p.call.method }, error: reply.error, url: where }));
      } else if (reply && "result" in reply) p.resolve(reply.result);
      else
        p.reject(
          new HttpRequestError({
            body: { method: p.call.method },
            details: "the node's answer left this call out",
            status,
            url: where,
          }),
        );
    }
  }

  /** A 413 (payload too large) is a body limit at any size; another refusal of a small batch, a call count. */
  function learnFrom(calls: number, bytes: number, tooLarge: boolean): void {
    const before = { ...limits };
    if (tooLarge || bytes > BODY_LIMIT_FLOOR_BYTES)
      limits.bytes = Math.min(limits.bytes, Math.floor(bytes / 2));
    else limits.calls = Math.min(limits.calls, Math.max(1, Math.ceil(calls / 2)));
    if (limits.calls === before.calls && limits.bytes === before.bytes) return;
    const message =
      limits.calls === 1
        ? "rpc: batches refused, sending single calls (set JUNCTION_RPC_MAX_BATCH=1 to start so)"
        : limits.calls !== before.calls
          ? `rpc: the node refused a batch of ${calls} calls; sending at most ${limits.calls} per batch (JUNCTION_RPC_MAX_BATCH sets it)`
          : `rpc: the node refused a ${bytes}-byte batch; keeping batches under ${limits.bytes} bytes (JUNCTION_RPC_MAX_BATCH_BYTES sets it)`;
    options.onLearned?.({ limits: { ...limits }, message });
  }

  return custom(
    {
      request: ({ method, params }: Call) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          const json = JSON.stringify({
            jsonrpc: "2.0",
            id,
            method,
            ...(params === undefined ? {} : { params }),
          });
          queue.push({ id, foreground: onRequestPath(), call: { method, params }, json, resolve, reject });
          // Calls made in this turn of the event loop travel together.
          if (queue.length === 1) setTimeout(flush, 0);
        }),
    },
    { retryCount: 0 },
  );
}

/** `pending` in order, cut into batches within `limits` (a call alone may exceed the body limit). */
export function cut<T extends { json: string }>(pending: T[], limits: BatchLimits): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 2;
  for (const p of pending) {
    const size = p.json.length + 1;
    if (batch.length > 0 && (batch.length >= limits.calls || bytes + size > limits.bytes)) {
      batches.push(batch);
      batch = [];
      bytes = 2;
    }
    batch.push(p);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * A batch the node refused as a whole, rather than answered call by call: an HTTP 400 or 413 (body or
 * batch too large, batches not supported), or any single JSON-RPC error object answering an array.
 */
function refusesBatch(status: number, parsed: unknown): boolean {
  if (status === 400 || status === 413) return true;
  return status >= 200 && status <= 299 && typeof parsed === "object" && parsed !== null && "error" in parsed;
}

/** What a request carried, for an error message: its methods, never their params. */
function describe(batch: Pending[]): { method: string } | { batch: number; methods: string[] } {
  if (batch.length === 1) return { method: batch[0]!.call.method };
  return { batch: batch.length, methods: [...new Set(batch.map((p) => p.call.method))].slice(0, 8) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  const inner = (error as { cause?: { code?: string; message?: string } }).cause;
  const cause = inner?.code ?? inner?.message;
  return `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ""}`.slice(
    0,
    200,
  );
}
