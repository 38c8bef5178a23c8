import { WebSocket } from "isows";
import type { Hex } from "viem";
import { CHAIN_ID } from "./chain.ts";

/** A head the node announced: only what it takes to decide a step is due (the step reads the block itself). */
export type NewHead = { number: bigint; hash: Hex };

/**
 * Why a head subscription did not start or ended, from a closed list: never the URL (it may carry a
 * credential) nor the node's own words.
 */
export type HeadSubscriptionReason =
  | "unreachable"
  | "timeout"
  | "refused"
  | "wrong-chain"
  | "closed"
  | "silent";

const DESCRIBED: Record<HeadSubscriptionReason, string> = {
  unreachable: "could not connect to the node's WebSocket endpoint",
  timeout: "the node did not confirm the subscription in time",
  refused: "the node refused eth_subscribe newHeads",
  "wrong-chain": `the WebSocket endpoint serves a chain other than ${CHAIN_ID}`,
  closed: "the WebSocket connection closed",
  silent: "the subscription stopped announcing heads the node serves",
};

/** A head subscription that failed or ended; `code` is a socket error code such as ECONNREFUSED, when known. */
export class HeadSubscriptionError extends Error {
  override name = "HeadSubscriptionError";
  constructor(
    readonly reason: HeadSubscriptionReason,
    readonly code?: string,
  ) {
    super(`newHeads subscription: ${DESCRIBED[reason]}${code ? ` (${code})` : ""}`);
  }
}

export type HeadSubscription = {
  /** Settles once the node confirmed the subscription; rejects with a HeadSubscriptionError. */
  ready: Promise<void>;
  /** Drops the connection at once, also while it is still connecting; no handler runs after it. */
  close: () => void;
};

export type HeadHandlers = {
  onHead: (head: NewHead) => void;
  /** The subscription ended after it was confirmed (once; never after `close`). */
  onEnd: (error: HeadSubscriptionError) => void;
};

/** How long connecting, checking the chain id and subscribing may take together. */
const READY_TIMEOUT_MS = 10_000;

/**
 * Subscribes to the node's new heads over WebSocket (`eth_subscribe` `newHeads`): checks the endpoint
 * serves chain 4663 (`eth_chainId`), then announces every head it is sent. It only signals: reads stay on
 * the service's HTTP client. Nothing it reports or throws carries the URL.
 */
export function subscribeNewHeads(
  url: string,
  handlers: HeadHandlers,
  options: { readyTimeoutMs?: number } = {},
): HeadSubscription {
  let settle!: { resolve: () => void; reject: (error: HeadSubscriptionError) => void };
  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let socket: WebSocket;
  try {
    socket = new WebSocket(url);
  } catch {
    // The constructor's own message names the URL.
    settle.reject(new HeadSubscriptionError("unreachable"));
    return { ready, close: () => {} };
  }
  let subscription: string | undefined;
  let finished = false;
  const timer = setTimeout(
    () => end(new HeadSubscriptionError("timeout")),
    options.readyTimeoutMs ?? READY_TIMEOUT_MS,
  );

  /** Stops everything once; reports `error` to whoever is waiting (the start, or the confirmed subscriber). */
  function end(error: HeadSubscriptionError | undefined) {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    drop(socket);
    if (!error) return;
    if (subscription === undefined) settle.reject(error);
    else handlers.onEnd(error);
  }

  const send = (id: number, method: string, params: unknown[]) =>
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  socket.addEventListener("open", () => {
    if (!finished) send(1, "eth_chainId", []);
  });
  socket.addEventListener("message", (event) => {
    if (finished) return;
    const message = parse(event.data);
    if (!message) return;
    if (message.id === 1) {
      if (message.result !== `0x${CHAIN_ID.toString(16)}`) end(new HeadSubscriptionError("wrong-chain"));
      else send(2, "eth_subscribe", ["newHeads"]);
    } else if (message.id === 2) {
      if (typeof message.result !== "string") return end(new HeadSubscriptionError("refused"));
      subscription = message.result;
      clearTimeout(timer);
      settle.resolve();
    } else if (message.method === "eth_subscription" && message.params?.subscription === subscription) {
      const head = headOf(message.params?.result);
      if (head) handlers.onHead(head);
    }
  });
  // Both fire on a failure; the first one ends it. Listeners stay attached, so a late error is absorbed.
  socket.addEventListener("error", (event) =>
    end(
      new HeadSubscriptionError(
        subscription === undefined ? "unreachable" : "closed",
        (event as { error?: { code?: unknown } }).error?.code as string | undefined,
      ),
    ),
  );
  socket.addEventListener("close", () =>
    end(new HeadSubscriptionError(subscription === undefined ? "unreachable" : "closed")),
  );

  return {
    ready,
    // Before confirmation the start is told it was closed; after it, the subscriber is told nothing.
    close: () => end(subscription === undefined ? new HeadSubscriptionError("closed") : undefined),
  };
}

type Message = {
  id?: unknown;
  result?: unknown;
  method?: unknown;
  params?: { subscription?: unknown; result?: unknown };
};

function parse(data: unknown): Message | undefined {
  if (typeof data !== "string") return undefined;
  try {
    const value = JSON.parse(data) as unknown;
    return typeof value === "object" && value !== null ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

function headOf(value: unknown): NewHead | undefined {
  const { number, hash } = (value ?? {}) as { number?: unknown; hash?: unknown };
  if (typeof number !== "string" || !/^0x[0-9a-fA-F]+$/.test(number)) return undefined;
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return undefined;
  return { number: BigInt(number), hash: hash as Hex };
}

/**
 * Drops the connection without a closing handshake: `ws` (Node 20) can terminate, which leaves no timer
 * waiting for a peer that may be gone; a native WebSocket closes.
 */
function drop(socket: WebSocket): void {
  const terminate = (socket as { terminate?: () => void }).terminate;
  if (terminate) terminate.call(socket);
  else socket.close();
}
