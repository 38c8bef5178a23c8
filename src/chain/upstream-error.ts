import { BaseError } from "viem";
import { JunctionError } from "../errors/junction-error.ts";
import { throttledCause } from "./node-pace.ts";

export type UpstreamReason =
  | "rpc-unavailable"
  | "rpc-rate-limited"
  | "gas-price-unavailable"
  | "block-pending"
  | "tip-unstable";

const MESSAGES: Record<UpstreamReason, string> = {
  "rpc-unavailable": "the chain node did not answer",
  "rpc-rate-limited": "the chain node is rate-limiting this service; retry after the time Retry-After gives",
  "gas-price-unavailable": "the chain node gave no positive gas price; the quote cannot be assessed",
  "block-pending": "the chain node returned a block that is still pending; ask again",
  "tip-unstable": "the chain tip kept reorganising during the read; ask again",
};

/**
 * The node could not give what a request needs: 503 UPSTREAM_UNAVAILABLE with a closed reason. The node's
 * own words stay in `cause` (logged, never sent).
 */
export class UpstreamUnavailableError extends JunctionError {
  override name = "UpstreamUnavailableError";
  constructor(reason: UpstreamReason, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super("UPSTREAM_UNAVAILABLE", MESSAGES[reason], { reason, ...options });
  }
}

/**
 * A failure of the node itself: any viem error (transport, JSON-RPC, timeout, or a call it wrapped), as
 * opposed to our own typed errors and bugs. The one place that decides it.
 */
export function isNodeFailure(error: unknown): boolean {
  return error instanceof BaseError;
}

/** Runs a chain read; a node failure becomes UpstreamUnavailableError, anything else passes through. */
export async function fromNode<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isNodeFailure(error)) throw error;
    const throttled = throttledCause(error);
    if (throttled)
      throw new UpstreamUnavailableError("rpc-rate-limited", {
        cause: error,
        retryAfterSeconds: Math.max(1, Math.ceil(throttled.retryAfterMs / 1000)),
      });
    throw new UpstreamUnavailableError("rpc-unavailable", { cause: error });
  }
}
