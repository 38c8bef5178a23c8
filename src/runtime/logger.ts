import { pino } from "pino";
import type { Config } from "../config/config.ts";

export type Logger = pino.Logger;

/** Structured JSON logs on stdout (operators' scrapers expect them); human progress goes to stderr. */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({ level, base: { service: "junction" }, serializers: { err: logError } });
}

/** The longest error message a log line keeps. */
const MESSAGE_CHARS = 300;
/** Stack frames kept per error. */
const STACK_FRAMES = 8;
/** Causes followed below a logged error. */
const CAUSE_DEPTH = 3;

export type LoggedError = {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  status?: unknown;
  cause?: LoggedError;
};

/**
 * An error as a log line keeps it: its name, a short message and a few stack frames, its code and HTTP
 * status, and its causes the same way. Never the rest: viem's errors carry the request's body, a call's
 * arguments (calldata) and the node's whole answer in their messages and fields, which a log must not
 * repeat (a 2 MB batch logged per failed step filled 177 MB of log in six minutes).
 */
export function logError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: clip(String(error)) };
  const short = (error as { shortMessage?: unknown }).shortMessage;
  const message = clip(typeof short === "string" ? short : firstParagraph(error.message));
  const frames = (error.stack ?? "").split("\n").filter((line) => line.startsWith("    at "));
  const code = (error as { code?: unknown }).code;
  const status = (error as { status?: unknown }).status;
  const cause = error.cause;
  return {
    type: error.name,
    message,
    ...(frames.length > 0
      ? { stack: [`${error.name}: ${message}`, ...frames.slice(0, STACK_FRAMES)].join("\n") }
      : {}),
    ...(typeof code === "number" || typeof code === "string" ? { code } : {}),
    ...(typeof status === "number" ? { status } : {}),
    ...(cause !== undefined && cause !== error && depth < CAUSE_DEPTH
      ? { cause: logError(cause, depth + 1) }
      : {}),
  };
}

const times = (n: number) => `repeated ${n} time${n === 1 ? "" : "s"}`;
const clip = (text: string) => (text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}…` : text);
const firstParagraph = (text: string) => text.split("\n\n")[0] ?? text;

/**
 * A warning that may repeat every few seconds (a follower failing each step while the node is away): the
 * first is logged at once, the repeats within `intervalMs` are counted, and the count is logged once the
 * interval ends (`repeated: N` with the last one's fields), so an outage costs a line a minute, not a line
 * a step. `stop` logs what is still counted.
 */
export function repeatingWarning(
  logger: Pick<Logger, "warn">,
  message: string,
  intervalMs = 60_000,
): { warn: (fields: Record<string, unknown>) => void; stop: () => void } {
  let repeated = 0;
  let last: Record<string, unknown> = {};
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (repeated === 0) return;
    logger.warn({ ...last, repeated, intervalMs }, `${message} (${times(repeated)})`);
    repeated = 0;
    timer = setTimeout(flush, intervalMs);
    timer.unref();
  };
  return {
    warn: (fields) => {
      if (timer) {
        repeated += 1;
        last = fields;
        return;
      }
      logger.warn(fields, message);
      timer = setTimeout(flush, intervalMs);
      timer.unref();
    },
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (repeated > 0) logger.warn({ ...last, repeated }, `${message} (${times(repeated)})`);
      repeated = 0;
    },
  };
}
