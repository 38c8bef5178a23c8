import type { StageTimings } from "./quote-types.ts";

/** Runs a stage, adding its wall time to `timings[stage]` (a stage may run more than once). */
export async function timed<T>(
  timings: StageTimings,
  stage: keyof StageTimings,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    timings[stage] += performance.now() - started;
  }
}
