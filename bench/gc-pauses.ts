import { PerformanceObserver } from "node:perf_hooks";

/**
 * Watches V8's garbage collection pauses (its `gc` performance entries, performance.now timebase). They are
 * delivered asynchronously, so they are attributed after the fact: `stop()` waits for the last ones and
 * returns how many milliseconds of pauses fell within any window of time.
 */
export function watchGcPauses(): { stop: () => Promise<(start: number, end: number) => number> } {
  const pauses: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      return (start, end) => {
        let paused = 0;
        for (const pause of pauses)
          paused += Math.max(0, Math.min(end, pause.end) - Math.max(start, pause.start));
        return paused;
      };
    },
  };
}
