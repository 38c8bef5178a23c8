/**
 * When a failed delivery is tried again (docs/api/builders.md, "Events and webhooks"): after each failed
 * attempt, the next waits the delay below, give or take a fifth (jitter, so receivers coming back are not
 * hit by every sender at once). The twelfth failure marks the delivery failed, about 34 hours after the
 * first attempt: past the 24 hours a receiver's outage may last.
 */
export const RETRY_DELAYS_SECONDS = [
  5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 21_600, 28_800, 43_200,
] as const;

/** Attempts before a delivery is marked failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * The wait (ms) before the next attempt after `attempts` failed ones, or undefined when the delivery is to
 * be marked failed. `scale` shortens the schedule (tests); `random` is the jitter's source.
 */
export function retryDelayMs(
  attempts: number,
  scale = 1,
  random: () => number = Math.random,
): number | undefined {
  const base = RETRY_DELAYS_SECONDS[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * 1000 * scale * (0.8 + 0.4 * random()));
}
