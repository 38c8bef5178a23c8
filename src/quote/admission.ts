import { JunctionError } from "../errors/junction-error.ts";
import { QUOTE_LIMITS } from "./limits.ts";

/** A rejected admission: 429 BUSY with this Retry-After (seconds). */
export class BusyError extends JunctionError {
  override name = "BusyError";
  constructor(reason: "concurrency" | "rate", retryAfterSeconds: number) {
    super(
      "BUSY",
      reason === "concurrency"
        ? "too many concurrent quotes"
        : "quote admissions for this minute are used up",
      { reason, retryAfterSeconds },
    );
  }
}

/** The search did not finish within its deadline: 503 QUOTE_TIMEOUT. */
export class QuoteTimeoutError extends JunctionError {
  override name = "QuoteTimeoutError";
  constructor(readonly deadlineMs: number) {
    super("QUOTE_TIMEOUT", `the quote exceeded its ${deadlineMs / 1000}-second deadline`);
  }
}

export type AdmissionOptions = {
  concurrency?: number;
  perMinute?: number;
  /** Admission and in-flight ownership expire after this long (ms). */
  ttlMs?: number;
  deadlineMs?: number;
  now?: () => number;
};

type InFlight = { promise: Promise<unknown>; startedAt: number; released: boolean; abort: AbortController };

/**
 * Per-process admission for expensive quotes (docs/rules.md, limits): at most 4 searches at once (else BUSY
 * with Retry-After 2), 60 admissions per minute window (else BUSY with the seconds left in the window),
 * identical concurrent requests share one in-flight search instead of starting another, and an admission
 * and its ownership of the in-flight search expire after 60 s so a stuck search cannot hold a slot. Each
 * search runs under the 25 s deadline and is aborted when it passes.
 */
export function createAdmission(options: AdmissionOptions = {}) {
  const concurrency = options.concurrency ?? QUOTE_LIMITS.concurrency;
  const perMinute = options.perMinute ?? QUOTE_LIMITS.admissionsPerMinute;
  const ttlMs = options.ttlMs ?? QUOTE_LIMITS.admissionTtlMs;
  const deadlineMs = options.deadlineMs ?? QUOTE_LIMITS.deadlineMs;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, InFlight>();
  let active = 0;
  let windowStart = Number.NEGATIVE_INFINITY;
  let admitted = 0;

  const release = (entry: InFlight) => {
    if (entry.released) return;
    entry.released = true;
    active--;
  };
  const expire = () => {
    for (const [key, entry] of inFlight) {
      if (now() - entry.startedAt >= ttlMs) {
        release(entry);
        entry.abort.abort();
        inFlight.delete(key);
      }
    }
  };

  return {
    /**
     * Runs `search` under admission, or joins the identical search already running for `key` (the full,
     * normalized request). Throws BusyError when not admitted, QuoteTimeoutError past the deadline.
     */
    run<T>(key: string, search: (signal: AbortSignal) => Promise<T>): Promise<T> {
      expire();
      const existing = inFlight.get(key);
      if (existing) return existing.promise as Promise<T>;
      if (active >= concurrency) throw new BusyError("concurrency", 2);
      const at = now();
      if (at - windowStart >= 60_000) {
        windowStart = at;
        admitted = 0;
      }
      if (admitted >= perMinute) {
        throw new BusyError("rate", Math.max(1, Math.ceil((windowStart + 60_000 - at) / 1000)));
      }
      admitted++;
      active++;
      const abort = new AbortController();
      const entry: InFlight = { promise: Promise.resolve(), startedAt: at, released: false, abort };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new QuoteTimeoutError(deadlineMs));
        }, deadlineMs);
      });
      entry.promise = Promise.race([search(abort.signal), deadline]).finally(() => {
        clearTimeout(timer);
        release(entry);
        if (inFlight.get(key) === entry) inFlight.delete(key);
      });
      inFlight.set(key, entry);
      return entry.promise as Promise<T>;
    },
    /** Searches running now (for metrics and tests). */
    active: () => active,
  };
}
