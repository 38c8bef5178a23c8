import {
  type AttemptOutcome,
  claimDueDeliveries,
  type DueDelivery,
  nextDeliveryDueInMs,
  recordAttempt,
} from "../store/repositories/webhook-deliveries.ts";
import type { Db } from "../store/schema.ts";
import type { OutboxSignal } from "./outbox-signal.ts";
import { retryDelayMs } from "./retry-schedule.ts";
import { type SendResult, sendWebhook } from "./send-webhook.ts";

/**
 * How long an idle sender may go without looking at the outbox: deliveries queued by other processes wait
 * at most this long. Each look is a query, so this sets the idle sender's cost (one every 5 s).
 */
export const WEBHOOK_IDLE_POLL_MS = 5_000;

/** The shortest sleep before looking again at a delivery due now that another process is claiming. */
const SOON_MS = 100;

export type WebhookSenderOptions = {
  db: Db;
  /** Private addresses allowed (the devnet, or the operator's choice): otherwise refused at connect time. */
  allowPrivate: boolean;
  signal: OutboxSignal;
  logger: { warn: (details: object, message: string) => void };
  /**
   * The longest the sender waits between looks at the outbox when nothing wakes it (ms, default 5000): it
   * otherwise sleeps until the next pending delivery is due, or until this process writes an event. What
   * it finds this way are deliveries other processes queued (another host's retries, the CLI's tests).
   */
  pollMs?: number;
  /** Deliveries in flight at once (default 64); at most 16 connections to one host. */
  concurrency?: number;
  /** How long a receiver has to answer (ms, default 10 s). */
  timeoutMs?: number;
  /** Shortens the retry schedule (tests; default 1). */
  retryScale?: number;
  onAttempt?: (outcome: "delivered" | "retry" | "failed", eventType: string) => void;
};

/**
 * The webhook sender every process runs (docs/api/builders.md, "Events and webhooks"): it claims due
 * deliveries from the outbox (each claimed by one process at a time; a claim dies with its process and
 * the delivery is sent again), sends them signed, and records each attempt: delivered on a 2xx, otherwise
 * tried again on the retry schedule, then marked failed. Delivery is at least once: receivers key on the
 * event id.
 */
export function startWebhookSender(options: WebhookSenderOptions) {
  const pollMs = options.pollMs ?? WEBHOOK_IDLE_POLL_MS;
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A claim outlives the longest attempt, with room for recording it.
  const claimSeconds = Math.ceil(timeoutMs / 1_000) + 30;
  let inFlight = 0;
  let stopped = false;
  const running = new Set<Promise<void>>();

  async function attempt(delivery: DueDelivery): Promise<void> {
    const result = await sendWebhook(
      { url: delivery.url, secrets: delivery.secrets },
      { id: delivery.eventId, type: delivery.eventType, payload: delivery.payload, deliveryId: delivery.id },
      { timeoutMs, publicOnly: !options.allowPrivate },
    );
    const outcome = outcomeOf(result, delivery.attempts + 1, options.retryScale ?? 1);
    await recordAttempt(options.db, delivery.id, outcome);
    options.onAttempt?.(outcome.status === "pending" ? "retry" : outcome.status, delivery.eventType);
  }

  async function fill(): Promise<number> {
    const room = concurrency - inFlight;
    if (room <= 0) return 0;
    const due = await claimDueDeliveries(options.db, room, claimSeconds);
    for (const delivery of due) {
      inFlight += 1;
      const task = attempt(delivery)
        .catch((error) =>
          options.logger.warn({ err: error, delivery: delivery.id }, "webhook delivery failed to record"),
        )
        .finally(() => {
          inFlight -= 1;
          running.delete(task);
          if (!stopped) options.signal.notify();
        });
      running.add(task);
    }
    return due.length;
  }

  /** How long to sleep before the next pending delivery is due, within `pollMs` (at least `SOON_MS`). */
  async function untilDue(): Promise<number> {
    const dueIn = (await nextDeliveryDueInMs(options.db)) ?? pollMs;
    // Due now yet not claimable: another process is claiming it; look again shortly, not at once.
    return Math.min(pollMs, Math.max(dueIn, SOON_MS));
  }

  // Claims when started, when woken (this process wrote events or finished an attempt) and when a
  // delivery falls due; otherwise it only asks, every `pollMs`, when the next one is due (one query).
  const loop = (async () => {
    while (!stopped) {
      let wait = pollMs;
      // A write notified while this looks (claims, asks when the next is due) must still wake it.
      let since = options.signal.seen();
      try {
        const claimed = await fill();
        // A full claim may leave more due: look again at once while there is room.
        if (claimed > 0 && inFlight < concurrency) continue;
        // A full sender waits for an attempt to end (each one wakes it); one with room, for the next due.
        if (inFlight < concurrency) wait = await untilDue();
      } catch (error) {
        options.logger.warn({ err: error }, "webhook outbox unavailable; retrying");
      }
      let woken = stopped || (await options.signal.wait(wait, since));
      // A quiet interval passed: another process may have queued something; claim only once it is due.
      while (!woken && !stopped && wait >= pollMs) {
        since = options.signal.seen();
        wait = await untilDue().catch(() => pollMs);
        if (wait <= SOON_MS) break;
        woken = await options.signal.wait(wait, since);
      }
    }
  })();

  return {
    /** Stops claiming and waits for the attempts in flight to finish and be recorded. */
    async stop(): Promise<void> {
      stopped = true;
      options.signal.notify();
      await loop;
      await Promise.all([...running]);
    },
  };
}

/** An attempt's result as the delivery log records it; `attempts` counts this one. */
export function outcomeOf(result: SendResult, attempts: number, retryScale: number): AttemptOutcome {
  const answer = result.answered
    ? { httpStatus: result.status, error: null, responseExcerpt: result.excerpt || null }
    : { httpStatus: null, error: result.failure, responseExcerpt: null };
  if (result.answered && result.status >= 200 && result.status < 300)
    return { status: "delivered", ...answer };
  const delay = retryDelayMs(attempts, retryScale);
  if (delay === undefined) return { status: "failed", ...answer };
  return { status: "pending", retryInMs: delay, ...answer };
}
