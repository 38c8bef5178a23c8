import type { Logger } from "./logger.ts";

/** How long readiness waits for the database: under the 2-5 s a load balancer's probe usually allows. */
const PING_DEADLINE_MS = 1_000;
/** How long one answer stands: probes from several balancers share one query, not one each. */
const PING_REUSE_MS = 1_000;

/**
 * Whether the database answers, for readiness (docs/rules.md, ours: shutdown): every keyed endpoint
 * answers 503 while it does not, so a load balancer should route elsewhere. Asks `ping` at most once per
 * `reuseMs` (concurrent callers share the question in flight), and counts an answer later than
 * `deadlineMs` as none. `onChange` hears each change of answer (to log it once, not per probe).
 */
export function watchDatabase(
  ping: () => Promise<void>,
  options: {
    deadlineMs?: number;
    reuseMs?: number;
    onChange?: (answers: boolean, error?: unknown) => void;
  } = {},
): () => Promise<boolean> {
  const { deadlineMs = PING_DEADLINE_MS, reuseMs = PING_REUSE_MS, onChange } = options;
  let last: { at: number; answers: boolean } | undefined;
  let asking: Promise<boolean> | undefined;
  const ask = async () => {
    const outcome = await withinDeadline(ping(), deadlineMs).then(
      () => ({ answers: true as const }),
      (error: unknown) => ({ answers: false as const, error }),
    );
    if ((last?.answers ?? true) !== outcome.answers)
      onChange?.(outcome.answers, "error" in outcome ? outcome.error : undefined);
    last = { at: Date.now(), answers: outcome.answers };
    return outcome.answers;
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

function withinDeadline(work: Promise<void>, deadlineMs: number): Promise<void> {
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
