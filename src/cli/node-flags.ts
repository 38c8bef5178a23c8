/**
 * The V8 flags a service process runs with: `npm start` passes them (package.json), and the primary of
 * `junction start --workers N` adds them to every worker it forks. The latency benchmark runs with them too.
 *
 * `--max-semi-space-size=64`: a quote allocates about 20 MB (bigints of the exact pool math, path curves,
 * decoded state) that lives for the quote's 20-100 ms. With V8's default 16 MB semi-spaces a scavenge runs
 * every few milliseconds of search and promotes most of a quote's data to the old generation, where
 * mark-compacts collect it: garbage collection was a fifth of a quoting process's CPU. With 64 MB, a
 * quote's data mostly dies young; measured on the latency benchmark (2 rounds), GC time 5.5 s -> 2.1 s
 * and mean server time 72 -> 52 ms (128 MB: 1.8 s; not worth another 128 MB of young generation).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];

/** `execArgv` with every service flag the process was not already started with (its own value kept). */
export function withServiceFlags(execArgv: readonly string[]): string[] {
  const named = (flag: string) => flag.split("=")[0]!;
  const given = new Set(execArgv.map(named));
  return [...execArgv, ...SERVICE_NODE_FLAGS.filter((flag) => !given.has(named(flag)))];
}
