import type { AdoptionProgress } from "../liquidity/followed-state/follow-state.ts";
import { DISCOVERY_PROGRESS_MS, roughDuration } from "./discovery-progress.ts";

/**
 * The followed pool state's lines while it takes in pools not followed yet (all of them at start, a
 * reread's after a gap): every `DISCOVERY_PROGRESS_MS` how many are followed, the rate and the time left,
 * then once, when none is left, how many it follows and how long it took. A new pool taken in within one
 * step says nothing after the first time.
 */
export function adoptionProgress(
  say: (line: string) => void,
  now: () => number = Date.now,
): (progress: AdoptionProgress) => void {
  let run: { started: number; toldAt: number; from: number; steps: number } | undefined;
  let first = true;
  return (progress) => {
    const at = now();
    run ??= { started: at, toldAt: at, from: progress.followed, steps: 0 };
    run.steps++;
    if (progress.left === 0) {
      if (first || run.steps > 1)
        say(
          `followed pool state: ${progress.followed} of ${progress.indexed} pools followed, taken in over ${roughDuration((at - run.started) / 1000)}`,
        );
      run = undefined;
      first = false;
      return;
    }
    if (at - run.toldAt < DISCOVERY_PROGRESS_MS) return;
    run.toldAt = at;
    const rate = (progress.followed - run.from) / Math.max((at - run.started) / 1000, 0.001);
    const percent = Math.floor((100 * progress.followed) / Math.max(progress.indexed, 1));
    say(
      `followed pool state: ${progress.followed} of ${progress.indexed} pools followed (${percent}%), ${Math.round(rate)} pools/s, about ${roughDuration(progress.left / Math.max(rate, 1))} left; quotes read the others directly`,
    );
  };
}
