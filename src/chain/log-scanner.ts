import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { isTransientRpcError } from "./rpc-errors.ts";

/** How a log scan sizes its `eth_getLogs` block ranges. */
export type LogRangePolicy = {
  /** Blocks per request to start with. */
  initial: bigint;
  /** Never more blocks per request (what the node allows when it allows everything). */
  max: bigint;
  /** Attempts of one range on transient trouble (timeouts, 429, 5xx) before the scan fails. */
  attempts: number;
  /** First pause between attempts; doubled each time. */
  backoffMs: number;
};

/**
 * Inside the limits public RPCs commonly enforce (Alchemy 2k-10k blocks or 10k logs, Infura 10k logs,
 * QuickNode 10k blocks); grown to `max` on a node that allows more, shrunk on one that allows less.
 */
export const DEFAULT_LOG_RANGES: LogRangePolicy = {
  initial: 5_000n,
  max: 100_000n,
  attempts: 4,
  backoffMs: 250,
};

export type LogScanner = ReturnType<typeof createLogScanner>;

/** A range that answered with fewer logs than this may double. */
const GROW_BELOW_LOGS = 2_000;

/**
 * Reads logs over a block range in chunks sized to the node, remembering what it learned across scans:
 * - a JSON-RPC error on a range of more than one block halves the range and asks again: node software
 *   words its range and result limits differently ("block range too large", "query returned more than
 *   10000 results", "log response size exceeded"), and a deterministic error stays an error when the range
 *   cannot shrink further (one block), so no message text is parsed;
 * - transient trouble (timeouts, HTTP 429 and 5xx) retries the same range with exponential backoff,
 *   `attempts` times at most;
 * - a range answered with few logs doubles the next one, up to `max`.
 * Results come back in block order.
 */
export function createLogScanner(policy: LogRangePolicy = DEFAULT_LOG_RANGES) {
  let range = policy.initial;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    /** Blocks the next request will span. */
    range: () => range,
    /** Reads `from` through `to`; `onRange` hears of each range read, so a long scan shows its progress. */
    async scan<T>(
      from: bigint,
      to: bigint,
      read: (from: bigint, to: bigint) => Promise<T[]>,
      onRange?: (end: bigint) => void,
    ): Promise<T[]> {
      const out: T[] = [];
      let start = from;
      let failures = 0;
      while (start <= to) {
        const end = start + range - 1n < to ? start + range - 1n : to;
        try {
          const logs = await read(start, end);
          out.push(...logs);
          start = end + 1n;
          failures = 0;
          onRange?.(end);
          if (logs.length < GROW_BELOW_LOGS && range < policy.max)
            range = range * 2n > policy.max ? policy.max : range * 2n;
        } catch (error) {
          if (isRangeRefusal(error) && end > start) {
            range = (end - start + 1n) / 2n;
            continue;
          }
          if (isTransientRpcError(error) && ++failures < policy.attempts) {
            await pause(policy.backoffMs * 2 ** (failures - 1));
            continue;
          }
          throw error;
        }
      }
      return out;
    },
  };
}

/** A JSON-RPC error answer (not transport trouble): possibly the node's way of saying the range is too big. */
function isRangeRefusal(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof TimeoutError || e instanceof HttpRequestError) return false;
    if (e instanceof RpcRequestError) return true;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  return false;
}
