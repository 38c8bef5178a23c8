import type { Logger } from "./logger.ts";

/** How long readiness waits for the database: under the 2-5 s a load balancer's probe usually allows. */
const PING_DEADLINE_MS = 1_000;
/** How long one answer stands: probes from several balancers share one query, not one each. */
const PING_REUSE_MS = 1_000;
/**
 * How long pings may go unanswered, none failing, before the database counts as not answering: a busy
 * database is not a lost one. Under load on two cores, the embedded database, which runs its queries one at
 * a time in the service's own process, took more than 1 s to answer its ping just after a start, and /readyz
 * turned 503 for that probe (fresh-clone CI: test/e2e/crash.test.ts, test/e2e/start.test.ts).
 */
const SLOW_GRACE_MS = 5_000;

/**
 * Whether the database answers, for readiness (docs/rules.md, ours: shutdown): every keyed endpoint
 * answers 503 while it does not, so a load balancer should route elsewhere. Asks `ping` at most once per
 * `reuseMs` (concurrent callers share the question in flight). A ping that fails counts at once. One still
 * unanswered at `deadlineMs` counts as an answer while no ping has failed since the last answer and the
 * pings have gone unanswered for less than `graceMs` (the database is slow, not gone), and as none after;
 * whenever a ping is answered, its answer is taken. `onChange` hears each change of answer (to log it once,
 * not per probe).
 */
export function watchDatabase(
  ping: () => Promise<void>,
  options: {
    deadlineMs?: number;
    reuseMs?: number;
    graceMs?: number;
    onChange?: (answers: boolean, error?: unknown) => void;
  } = {},
): () => Promise<boolean> {
  const {
    deadlineMs = PING_DEADLINE_MS,
    reuseMs = PING_REUSE_MS,
    graceMs = SLOW_GRACE_MS,
    onChange,
  } = options;
  /** The newest evidence: whether the database answered the ping started at `at` (ms). */
  let last: { at: number; answers: boolean } | undefined;
  let asking: Promise<boolean> | undefined;
  /** When the first ping still unanswered at its deadline, since the last answer, was started. */
  let slowSince: number | undefined;
  const settle = (at: number, answers: boolean, error?: unknown): boolean => {
    // A slow ping's answer never overrides what a ping started after it found.
    if (last && at < last.at) return last.answers;
    if ((last?.answers ?? true) !== answers) onChange?.(answers, error);
    last = { at, answers };
    if (answers) slowSince = undefined;
    return answers;
  };
  const ask = async () => {
    const at = Date.now();
    const answered = ping().then(
      () => settle(at, true),
      (error: unknown) => settle(at, false, error),
    );
    try {
      return await withinDeadline(answered, deadlineMs);
    } catch (error) {
      if (last?.answers !== false) {
        slowSince ??= at;
        if (Date.now() - slowSince < graceMs) return true;
      }
      return settle(at, false, error);
    }
  };
  return () => {
    if (last && Date.now() - last.at < reuseMs) return Promise.resolve(last.answers);
    asking ??= ask().finally(() => {
      asking = undefined;
    });
    return asking;
  };
}

class DeadlineError extends Error {
  override name = "DeadlineError";
}

function withinDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Logs each change of the database's answer once (not once per probe). */
export const logDatabase =
  (logger: Logger) =>
  (answers: boolean, error?: unknown): void =>
    answers
      ? logger.info("the database answers again: ready")
      : logger.warn({ err: error }, "the database does not answer: not ready");
