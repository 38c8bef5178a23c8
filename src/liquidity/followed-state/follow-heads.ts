import { type HeadHandlers, type HeadSubscription, HeadSubscriptionError } from "../../chain/new-heads.ts";

/** How steps are being triggered: by the node's announced heads, or by a timer alone. */
export type FollowMode = "subscription" | "polling";

/** A change of mode: the first one at start, then every fallback to polling and every recovery. */
export type FollowModeChange = {
  mode: FollowMode;
  at: "start" | "fallback" | "recovery";
  /** Why the subscription is not (or no longer) in use. */
  error?: Error;
};

export type FollowHeadsOptions = {
  /** Quiet time between steps while no subscription announces heads. */
  pollMs: number;
  /** A step failed (it is retried after `pollMs`, or at the next head). */
  onError: (error: unknown) => void;
  /** The node's new heads, when it offers them: each one triggers a step at once. */
  heads?: {
    subscribe: (handlers: HeadHandlers) => HeadSubscription;
    /**
     * Quiet time between steps while the subscription is healthy: the safety poll. It keeps the follower
     * seeing the head when no block comes, and notices a subscription that went silent.
     */
    safetyPollMs: number;
    /** The delay before subscribing again: `first`, doubling to `max` while attempts fail (1 s, 30 s). */
    retryMs?: { first: number; max: number };
  };
  onMode?: (change: FollowModeChange) => void;
  now?: () => number;
};

/**
 * Steps a follower as new heads arrive (docs/architecture.md, "The quote pipeline"): with a subscription,
 * each announced head triggers one step at once (a burst of heads while a step runs queues one more, never
 * one per head), and a step also runs after `safetyPollMs` of quiet; without one, or once it errs, closes
 * or goes silent (the node serves a head it has not announced for `safetyPollMs`), steps poll while
 * subscribing is tried again with backoff: timed to the chain's cadence (`blockCadence`), so a chain with
 * regular blocks is read about once a block, never more than `2 × pollMs` apart. Steps run one at a time.
 */
export function followHeads(step: () => Promise<{ head: bigint }>, options: FollowHeadsOptions) {
  const { heads } = options;
  const retry = heads?.retryMs ?? { first: 1_000, max: 30_000 };
  let stopped = false;
  let mode: FollowMode = "polling";
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let subscription: { close: () => void } | undefined;
  let attempts = 0;
  /**
   * The newest head the subscription announced (or the first step after it was confirmed found), and one
   * the node served that it had not announced (since when). Steps are numbered from 1.
   */
  let announced = -1n;
  let unannounced: { number: bigint; since: number } | undefined;
  let steps = 0;
  let baselineStep = 0;
  let wanted = false;
  let busy = false;
  let draining: Promise<void> = Promise.resolve();
  const now = options.now ?? Date.now;
  const cadence = blockCadence();

  function report(change: FollowModeChange) {
    started = true;
    options.onMode?.(change);
  }

  /** Asks for a step: runs one now, or one more after the running one. */
  function trigger() {
    if (stopped) return;
    wanted = true;
    if (busy) return;
    busy = true;
    draining = drain();
  }

  async function drain() {
    let failed = false;
    try {
      while (wanted && !stopped) {
        wanted = false;
        clearTimeout(timer);
        failed = false;
        const n = ++steps;
        try {
          // A new head counts as seen when the poll that found it was sent, not after the step's work.
          const sent = now();
          const { head } = await step();
          cadence.saw(head, sent);
          noticeSilence(head, n);
        } catch (error) {
          failed = true;
          if (n === baselineStep) baselineStep++;
          if (!stopped) options.onError(error);
        }
      }
    } finally {
      busy = false;
      if (!stopped) schedule(failed);
    }
  }

  function schedule(afterFailure = false) {
    clearTimeout(timer);
    const quiet =
      mode === "subscription" && !afterFailure
        ? heads!.safetyPollMs
        : afterFailure
          ? options.pollMs
          : cadence.nextPollMs(options.pollMs, now());
    timer = setTimeout(trigger, quiet);
  }

  /**
   * A head the node serves that the subscription has not announced within the safety poll means it went
   * silent. What the first step after the subscription was confirmed finds counts as announced.
   */
  function noticeSilence(head: bigint, n: number) {
    if (mode !== "subscription" || n < baselineStep) return;
    if (n === baselineStep && head > announced) announced = head;
    if (head <= announced) {
      unannounced = undefined;
      return;
    }
    if (!unannounced) unannounced = { number: head, since: Date.now() };
    else if (Date.now() - unannounced.since >= heads!.safetyPollMs)
      fallBack(new HeadSubscriptionError("silent"));
  }

  function subscribe() {
    if (stopped || !heads) return;
    let live = true;
    const current = heads.subscribe({
      onHead: (head) => {
        if (!live || stopped) return;
        attempts = 0;
        if (head.number > announced) announced = head.number;
        if (unannounced && head.number >= unannounced.number) unannounced = undefined;
        trigger();
      },
      onEnd: (error) => {
        if (live) fallBack(error);
      },
    });
    subscription = {
      close: () => {
        live = false;
        current.close();
      },
    };
    current.ready.then(
      () => {
        if (!live || stopped) return;
        const at = !started ? "start" : "recovery";
        mode = "subscription";
        unannounced = undefined;
        announced = -1n;
        baselineStep = steps + 1;
        report({ mode, at });
        // Heads may have come while it was down or connecting: catch up at once.
        trigger();
      },
      (error: Error) => {
        if (live && !stopped) fallBack(error);
      },
    );
  }

  /** Back to polling: closes the subscription and tries again later; reports only a change of mode. */
  function fallBack(error: Error) {
    subscription?.close();
    subscription = undefined;
    const was = mode;
    mode = "polling";
    unannounced = undefined;
    if (!started) report({ mode, at: "start", error });
    else if (was === "subscription") report({ mode, at: "fallback", error });
    if (!busy) schedule();
    const delay = Math.min(retry.max, retry.first * 2 ** attempts);
    attempts++;
    retryTimer = setTimeout(subscribe, delay);
  }

  if (heads) subscribe();
  else report({ mode, at: "start" });
  trigger();

  return {
    mode: () => mode,
    /** Closes the subscription and the timers, and waits for a running step. */
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(retryTimer);
      subscription?.close();
      subscription = undefined;
      await draining;
    },
  };
}

/**
 * When to poll for the next head, from the chain's pace as this process sees it: each block's arrival is
 * estimated between the last poll that still found the block before it and the poll that found it (the
 * predicted arrival, when it lies between them), the interval is a moving average of those estimates, and
 * the next poll comes just after the next block is due. Polls land soon after each block instead of every
 * `pollMs` whatever the chain's pace; a block seen with no poll missing it leans the pace a little shorter,
 * so a poll that has drifted late is pulled back. Before the pace is known, and for a chain slower than two
 * polls, it polls every `pollMs` (the longest wait is `2 × pollMs`: followed state serves quotes for three
 * of them after it last saw the head); a block later than due is polled for at a quarter of `pollMs`, then
 * less often. `saw` takes each poll's head and when the poll was sent.
 */
export function blockCadence() {
  let last: { head: bigint; arrived: number } | undefined;
  let interval: number | undefined;
  let missedAt: number | undefined;
  return {
    saw(head: bigint, at: number): void {
      if (last && head === last.head) {
        missedAt = at;
        return;
      }
      if (last && head < last.head) return;
      let arrived = at;
      if (last && head === last.head + 1n) {
        if (interval === undefined) interval = at - last.arrived;
        else {
          const predicted = last.arrived + interval;
          arrived = Math.min(at, Math.max(missedAt ?? Number.NEGATIVE_INFINITY, predicted));
          const sample = (arrived - last.arrived) * (missedAt === undefined ? UNMISSED_LEAN : 1);
          interval = interval * 0.75 + sample * 0.25;
        }
      } else if (last && interval !== undefined) interval *= 0.9;
      last = { head, arrived };
      missedAt = undefined;
    },
    nextPollMs(pollMs: number, now: number): number {
      if (!last || interval === undefined || interval > 2 * pollMs) return pollMs;
      const early = last.arrived + interval + DUE_MARGIN_MS - now;
      if (early > 0) return Math.min(early, 2 * pollMs);
      return Math.min(pollMs, Math.max(pollMs / 4, -early));
    },
  };
}

/** A poll for a due block waits this much past its due time (the node's own delay in serving it). */
const DUE_MARGIN_MS = 50;
/** A block no poll missed may have come before it was predicted: its interval counts a little shorter. */
const UNMISSED_LEAN = 0.99;
