import { HttpRequestError } from "viem";

/** Backoff after a rate limit without Retry-After: 1 s, doubled per repeat, at most 30 s, with jitter. */
const BACKOFF = { firstMs: 1_000, maxMs: 30_000 } as const;

/**
 * The node is rate-limiting this process (HTTP 429, or JSON-RPC error 429): the call was not run, and no
 * call on a request's behalf is sent before `retryAfterMs` passes. A node failure (viem's error family), so a
 * quote answers it as 503 UPSTREAM_UNAVAILABLE, with Retry-After.
 */
export class NodeThrottledError extends HttpRequestError {
  override name = "NodeThrottledError" as never;
  readonly retryAfterMs: number;
  constructor(options: { body: Record<string, unknown>; url: string; retryAfterMs: number }) {
    super({
      body: options.body,
      status: 429,
      details: `the node is rate-limiting requests; retry after ${Math.ceil(options.retryAfterMs / 1000)} s`,
      url: options.url,
    });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The first NodeThrottledError in `error`'s cause chain (viem wraps transport errors in its own). */
export function throttledCause(error: unknown): NodeThrottledError | undefined {
  for (let at: unknown = error; at; at = (at as { cause?: unknown }).cause) {
    if (at instanceof NodeThrottledError) return at;
    if ((at as { cause?: unknown }).cause === at) return undefined;
  }
  return undefined;
}

export type NodePace = ReturnType<typeof createNodePace>;

/**
 * How fast this process may send requests to one node (docs/operating.md, "Choosing a node"):
 * - a rate limit the node answered (`throttled`) starts a backoff, the Retry-After the node gave or else
 *   exponential with jitter; during it a request's calls (`foreground`) fail at once with
 *   NodeThrottledError, so a quote answers 503 with Retry-After rather than hang, while background work
 *   (followers, indexers) waits it out and catches up; a request the node answers ends the streak;
 * - `maxRps`, when set, is the whole process's budget of HTTP requests per second (a token bucket a
 *   second deep): requests on a client's behalf take tokens before background ones.
 */
export function createNodePace(options: { maxRps?: number; now?: () => number; random?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  let pausedUntil = 0;
  let streak = 0;
  const rate = options.maxRps;
  let tokens = rate ?? 0;
  let refilledAt = now();
  const waiting: { foreground: boolean; resolve: () => void }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const refill = () => {
    if (rate === undefined) return;
    const at = now();
    tokens = Math.min(rate, tokens + ((at - refilledAt) / 1000) * rate);
    refilledAt = at;
  };

  /** Lets waiting requests go while tokens and the backoff allow, foreground first. */
  const release = () => {
    timer = undefined;
    refill();
    const paused = pausedUntil - now();
    waiting.sort((a, b) => Number(b.foreground) - Number(a.foreground));
    while (waiting.length > 0) {
      if (!waiting[0]!.foreground && paused > 0) break;
      if (rate !== undefined && tokens < 1) break;
      if (rate !== undefined) tokens -= 1;
      waiting.shift()!.resolve();
    }
    const head = waiting[0];
    if (!head) return;
    const untilToken = rate === undefined || tokens >= 1 ? 0 : ((1 - tokens) / rate) * 1000;
    const untilResume = head.foreground ? 0 : Math.max(0, pausedUntil - now());
    timer = setTimeout(release, Math.max(untilToken, untilResume, 1));
  };

  return {
    /** Ms left of the current backoff (0 when none). */
    pausedForMs: () => Math.max(0, pausedUntil - now()),
    /**
     * Waits for this request's turn. A foreground request during a backoff is refused at once: the
     * returned number is the ms left, and the caller fails its calls with NodeThrottledError.
     */
    async acquire(foreground: boolean): Promise<number> {
      const paused = pausedUntil - now();
      if (foreground && paused > 0) return paused;
      if (rate === undefined && paused <= 0) return 0;
      await new Promise<void>((resolve) => {
        waiting.push({ foreground, resolve });
        if (timer === undefined) release();
      });
      return 0;
    },
    /** The node answered a rate limit: pause for its Retry-After, or back off exponentially with jitter. */
    throttled(retryAfterMs: number | undefined): number {
      streak += 1;
      const backoff = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (streak - 1));
      const ms = retryAfterMs ?? Math.round(backoff * (0.5 + random()));
      pausedUntil = Math.max(pausedUntil, now() + ms);
      return pausedUntil - now();
    },
    /** The node answered a request: the rate-limit streak is over. */
    answered(): void {
      streak = 0;
    },
  };
}

/** A Retry-After header in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
