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
  /**
   * What the node was seen to allow, shared by every scanner reading the same node (default: this scanner's
   * own): a range one scanner learned the node refuses is not tried again by another.
   */
  learned?: LearnedLogRange;
};

/**
 * The widest `eth_getLogs` range a node answered and the narrowest it refused, for every scanner of one node.
 * Growth stays below the narrowest refused range and bisects the gap between the two, so a node capped at
 * 100 blocks settles near 100 in a few refusals rather than being refused every other request.
 */
export class LearnedLogRange {
  private widestAnswered = 0n;
  private narrowestRefused: bigint | undefined;
  private told = false;

  /** `onRefused` hears of each range the node refused, `first` once (a log line for the operator, a metric). */
  constructor(private readonly onRefused?: (blocks: bigint, first: boolean) => void) {}

  answered(blocks: bigint): void {
    if (
      blocks > this.widestAnswered &&
      (this.narrowestRefused === undefined || blocks < this.narrowestRefused)
    )
      this.widestAnswered = blocks;
  }

  refused(blocks: bigint): void {
    if (this.narrowestRefused === undefined || blocks < this.narrowestRefused) this.narrowestRefused = blocks;
    // A node limiting results, not blocks, can refuse a dense range narrower than a sparse one it answered.
    if (this.widestAnswered >= blocks) this.widestAnswered = 0n;
    this.onRefused?.(blocks, !this.told);
    this.told = true;
  }

  /** The range a new scan starts with, wanting `wanted` blocks: the widest answered once one was refused. */
  start(wanted: bigint): bigint {
    if (this.narrowestRefused === undefined) return wanted;
    const safe = this.widestAnswered > 0n ? this.widestAnswered : this.narrowestRefused / 2n;
    return wanted < safe ? wanted : safe > 0n ? safe : 1n;
  }

  /** The range to try after one of `range` blocks answered, wanting `wanted` blocks at most. */
  next(range: bigint, wanted: bigint): bigint {
    const refused = this.narrowestRefused;
    if (refused === undefined) return wanted;
    const known = this.widestAnswered > range ? this.widestAnswered : range;
    if (wanted <= known) return wanted;
    // Within an eighth of the limit: close enough, stop probing it.
    if (refused - known <= known / 8n + 1n) return known;
    const middle = (known + refused) / 2n;
    return wanted < middle ? wanted : middle;
  }

  /** The range to try after one of `blocks` was refused: the widest answered, else half of it. */
  afterRefusal(blocks: bigint): bigint {
    return this.widestAnswered > 0n && this.widestAnswered < blocks ? this.widestAnswered : blocks / 2n;
  }
}

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

/**
 * The log ranges of one node: `maxLogRange` (JUNCTION_RPC_MAX_LOG_RANGE) caps them up front; unset, the
 * defaults, narrowed by what the node refuses (every scanner shares what one learned).
 */
export function nodeLogRanges(
  maxLogRange: number | undefined,
  tell: { onRefused?: (blocks: bigint, first: boolean) => void } = {},
): LogRangePolicy {
  const max = maxLogRange === undefined ? DEFAULT_LOG_RANGES.max : BigInt(maxLogRange);
  return {
    ...DEFAULT_LOG_RANGES,
    initial: DEFAULT_LOG_RANGES.initial < max ? DEFAULT_LOG_RANGES.initial : max,
    max,
    learned: new LearnedLogRange(tell.onRefused),
  };
}

export type LogScanner = ReturnType<typeof createLogScanner>;

/** A range that answered with fewer logs than this may double. */
const GROW_BELOW_LOGS = 2_000;

/**
 * Reads logs over a block range in chunks sized to the node, remembering what it learned across scans:
 * - a JSON-RPC error on a range of more than one block narrows the range (to the widest the node answered,
 *   else half) and asks again, and the node's limit is bisected between what it answered and what it
 *   refused (`LearnedLogRange`, shared by the scanners of one node); node software
 *   words its range and result limits differently ("block range too large", "query returned more than
 *   10000 results", "log response size exceeded"), and a deterministic error stays an error when the range
 *   cannot shrink further (one block), so no message text is parsed;
 * - transient trouble (timeouts, HTTP 429 and 5xx) retries the same range with exponential backoff,
 *   `attempts` times at most;
 * - a range answered with few logs doubles the next one, up to `max` and below what the node refused.
 * Results come back in block order.
 */
export function createLogScanner(policy: LogRangePolicy = DEFAULT_LOG_RANGES) {
  const learned = policy.learned ?? new LearnedLogRange();
  let range = learned.start(policy.initial < policy.max ? policy.initial : policy.max);
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
          learned.answered(end - start + 1n);
          start = end + 1n;
          failures = 0;
          onRange?.(end);
          if (logs.length < GROW_BELOW_LOGS && range < policy.max)
            range = learned.next(range, range * 2n > policy.max ? policy.max : range * 2n);
        } catch (error) {
          if (isRangeRefusal(error) && end > start) {
            learned.refused(end - start + 1n);
            range = learned.afterRefusal(end - start + 1n);
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
