/**
 * The V8 flags a service process runs with: `npm start` passes them (package.json), and the primary of
 * `junction start --workers N` adds them to every worker it forks. The latency benchmark runs with them too.
 *
 * `--max-semi-space-size=64`: a quote allocates about 20 MB (bigints of the exact pool math, path curves,
 * decoded state) that lives for the quote's 20-100 ms. With V8's default 16 MB semi-spaces a scavenge runs
 * every few milliseconds of search and promotes much of a quote's data to the old generation, where
 * mark-compacts collect it. With 64 MB it mostly dies young. Measured on the latency benchmark (612 quotes,
 * two runs each, garbage collection pauses per quote from V8's `gc` entries): pauses mean 6.2-7.2 -> 3.5-3.7
 * ms and p50 5-6 -> 0 ms; mean server time 44-47 -> 40-41 ms, p99 109-120 -> 96-104 ms. 128 MB (one run:
 * pauses mean 2.8 ms, server time mean 39.1 ms) is within the noise of 64 for another 128 MB of young
 * generation.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];

/** `execArgv` with every service flag the process was not already started with (its own value kept). */
export function withServiceFlags(execArgv: readonly string[]): string[] {
  const named = (flag: string) => flag.split("=")[0]!;
  const given = new Set(execArgv.map(named));
  return [...execArgv, ...SERVICE_NODE_FLAGS.filter((flag) => !given.has(named(flag)))];
}
