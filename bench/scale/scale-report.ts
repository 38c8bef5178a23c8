import { machineLine, table } from "../machine.ts";
import { median, percentile } from "../measure.ts";
import type { FollowedCheck } from "./followed-check.ts";
import type { LogSummary } from "./log-summary.ts";
import type { QuoteSample } from "./quote-loop.ts";
import type { BlockPhase, BlockSample } from "./run-blocks.ts";
import type { ScaleManifest } from "./scale-manifest.ts";
import type { ScaleOptions } from "./scale-options.ts";

export type ScaleRun = {
  options: ScaleOptions;
  manifest: ScaleManifest;
  chain: { from: "built" | "cache"; cacheDir: string; cacheBytes: number; anvilLoadSeconds: number };
  readySeconds: number;
  /** Until every pool's state was followed; NaN if the service never said so. */
  followedSeconds: number;
  rss: { ready: number; end: number; peak: number };
  blocks: BlockSample[];
  quotes: QuoteSample[];
  log: LogSummary;
  metrics: string[];
  /** The followed state run beside the service, compared pool by pool with direct reads at the end. */
  exact: FollowedCheck;
};

const WARNINGS_SHOWN = 8;
const METHODS_SHOWN = 8;
const SLOWEST_SHOWN = 3;

/** The run as one table row (the columns docs/benchmarks.md, "Scale", explains) and notes below it. */
export function scaleReport(run: ScaleRun): string[] {
  const { options, manifest, blocks, quotes } = run;
  const phase = (name: BlockPhase) => blocks.filter((block) => block.phase === name);
  const p50 = (values: number[]) => (values.length > 0 ? median(values).toFixed(0) : "–");
  // CPU is counted in the kernel's 10 ms ticks: a block's own figure is coarse, the mean over a phase is not.
  const cpu = (name: BlockPhase, of: "cpuMs" | "mainCpuMs" = "cpuMs") => {
    const values = phase(name).map((block) => block[of]);
    return values.length > 0 ? (values.reduce((sum, v) => sum + v, 0) / values.length).toFixed(0) : "–";
  };
  const calls = (name: BlockPhase) => p50(phase(name).map((block) => block.calls.length));
  const ms = quotes.map((quote) => quote.ms);
  // The service's own count where it gave one (Server-Timing), else what the wire showed.
  const trips = quotes.map((quote) => quote.roundTrips ?? quote.wireRoundTrips);
  const at = (values: number[], p: number, digits = 0) =>
    values.length > 0 ? percentile(values, p).toFixed(digits) : "–";
  const errors = quotes.filter((quote) => quote.status !== 200);
  const header = [
    "pools (tokens)",
    "ready s (all pools followed s)",
    "RSS at ready / end / peak MiB",
    `CPU ms per ${options.swapsPerBlock}-swap block, without / with quotes (mean)`,
    "CPU ms per empty block, all threads (main thread) (mean)",
    "quote ms p50 / p90 / p99",
    "round trips p50 / max",
    "errors",
    "node calls per busy block without quotes (p50)",
    "node calls per empty block (p50)",
    "followed state bytes per pool",
  ];
  const row = [
    `${manifest.poolCount.toLocaleString("en-US")} (${manifest.tokens.length})`,
    `${run.readySeconds.toFixed(1)} (${Number.isNaN(run.followedSeconds) ? "–" : run.followedSeconds.toFixed(1)})`,
    [run.rss.ready, run.rss.end, run.rss.peak].map((mib) => mib.toFixed(0)).join(" / "),
    `${cpu("busy")} / ${cpu("busy-quoted")}`,
    `${cpu("empty")} (${cpu("empty", "mainCpuMs")})`,
    [50, 90, 99].map((p) => at(ms, p)).join(" / "),
    `${at(trips, 50)} / ${quotes.length > 0 ? Math.max(...trips) : "–"}`,
    `${errors.length} of ${quotes.length}`,
    calls("busy"),
    calls("empty"),
    run.exact.bytesPerPool > 0 ? run.exact.bytesPerPool.toFixed(0) : "–",
  ];
  return ["## Scale", "", machineLine(chainLine(run)), "", ...table(header, [row]), "", ...notes(run, phase)];
}

function chainLine(run: ScaleRun): string {
  const { options, manifest, chain } = run;
  const kinds = ["v2", "v3", "v4"].map(
    (kind) => `${manifest.pools.filter((pool) => pool.kind === kind).length} ${kind.toUpperCase()}`,
  );
  const node = [
    options.bodyLimit !== undefined ? `request bodies capped at ${options.bodyLimit} bytes` : "",
    options.rpcDelayMs !== undefined ? `${options.rpcDelayMs} ms added to every request` : "",
    options.ws ? "heads by a newHeads subscription on anvil's own socket (not counted)" : "",
    options.fork ? "an anvil forked from the built chain, which mines in milliseconds (--fork)" : "",
  ].filter(Boolean);
  return [
    `seed ${manifest.seed}, ${manifest.poolCount} pools (${kinds.join(", ")}) over ${manifest.tokens.length} tokens`,
    chain.from === "built"
      ? `built in ${manifest.build.seconds} s`
      : `loaded from the cache (built in ${manifest.build.seconds} s)`,
    `cache ${(chain.cacheBytes / 2 ** 20).toFixed(0)} MiB, anvil loaded it in ${chain.anvilLoadSeconds.toFixed(1)} s`,
    `${options.blocks} blocks every ${options.blockTimeSeconds} s (${options.blocks - options.busy} empty, ${options.busy} with ${options.swapsPerBlock} swaps)`,
    node.length > 0 ? `node: ${node.join(", ")}` : "node: anvil behind a counting proxy, no limits",
  ].join("; ");
}

function notes(run: ScaleRun, phase: (name: BlockPhase) => BlockSample[]): string[] {
  const busy = [...phase("busy"), ...phase("busy-quoted")];
  const sent = busy.reduce((sum, block) => sum + block.swaps, 0);
  const succeeded = busy.reduce((sum, block) => sum + block.succeeded, 0);
  const lines = [
    `- Swaps: ${succeeded} of ${sent} succeeded (V2 Router02, V3 SwapRouter, V4 Universal Router). anvil mined a busy block in ${medianMs(busy.map((b) => b.mineMs))} ms (p50), an empty one in ${medianMs(phase("empty").map((b) => b.mineMs))} ms.`,
    `- Quotes: ${run.quotes.length} (${statusCounts(run.quotes)}). Round trips in the table: the service's own count (its \`Server-Timing\` header, \`rpc-round-trips\`). On the wire, the busy periods at the proxy in each quote's window (the head follower's requests included): p50 ${p50Of(run.quotes.map((q) => q.wireRoundTrips))}, max ${Math.max(0, ...run.quotes.map((q) => q.wireRoundTrips))}; HTTP requests in the window p50 ${p50Of(run.quotes.map((q) => q.requests))}.`,
    `- ${miningOverlap(run.quotes, run.blocks)}`,
    `- Slowest quotes: ${[...run.quotes]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN)
      .map((quote) => `${quote.pair} ${quote.ms.toFixed(0)} ms (${stageMedians([quote])})`)
      .join(", ")}.`,
    `- ${beyondOneRoundTrip(run.quotes)}`,
    `- ${candidatesNotSimulated(run.quotes)}`,
    ...failedQuotes(run.quotes, run.blocks),
    `- Node calls per busy block without quotes, by method (p50): ${methodMedians(phase("busy"))}; per empty block: ${methodMedians(phase("empty"))}.`,
    `- Service log (kept at ${run.log.path}): ${(run.log.bytes / 1024).toFixed(0)} KiB, ${run.log.lines} lines; ${run.log.counts.length === 0 ? "no warnings or errors" : "warnings and errors by message:"}`,
    ...run.log.counts
      .slice(0, WARNINGS_SHOWN)
      .map((entry) => `  - ${entry.count} × ${entry.level}: ${entry.message}`),
    exactLine(run.exact),
    "- Metrics after the run (followed state, mismatches, RPC):",
    ...run.metrics.map((line) => `  - ${line}`),
  ];
  return lines;
}

function exactLine(check: FollowedCheck): string {
  const differed = check.differed.length + check.sampledMismatches.length;
  const list = [...check.differed, ...check.sampledMismatches.map((m) => `sampled ${m}`)].slice(0, 5);
  return `- Followed state beside the service (same code, same blocks), after the last block: ${check.followed} of ${check.indexed} routable pools followed, ${check.compared} compared with a direct read at its head, ${differed === 0 ? "0 differed" : `${differed} differed (${list.join("; ")})`}; ${check.sampledMismatches.length} sampled mismatches during the run.`;
}

function statusCounts(quotes: readonly QuoteSample[]): string {
  const counts = new Map<string, number>();
  for (const quote of quotes) {
    const key = quote.code ? `${quote.status} ${quote.code}` : String(quote.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${count} × ${key}`).join(", ") || "none";
}

function methodMedians(blocks: readonly BlockSample[]): string {
  if (blocks.length === 0) return "–";
  const methods = new Set(blocks.flatMap((block) => block.calls));
  const medians = [...methods].map((method) => ({
    method,
    p50: median(blocks.map((block) => block.calls.filter((call) => call === method).length)),
  }));
  return medians
    .sort((a, b) => b.p50 - a.p50)
    .slice(0, METHODS_SHOWN)
    .map(({ method, p50 }) => `${method} ${p50}`)
    .join(", ");
}

/**
 * anvil hashes its whole state as it mines (about a second a block at 10,000 pools), taking a core the
 * service shares on a 2-core machine; a call made meanwhile sometimes waits too. Quotes that overlap a
 * block's mining are said apart, so a reader can tell the node's cost from the service's.
 */
/** Whether anvil was mining `block` while `quote` ran. */
function overlaps(quote: QuoteSample, block: BlockSample): boolean {
  return block.minedAt < quote.startedAt + quote.ms && block.minedAt + block.mineMs > quote.startedAt;
}

function miningOverlap(quotes: readonly QuoteSample[], blocks: readonly BlockSample[]): string {
  const overlapping = (quote: QuoteSample) => blocks.some((block) => overlaps(quote, block));
  const group = (name: string, members: QuoteSample[]) =>
    members.length === 0
      ? `${name}: none`
      : `${name}: ${members.length}, p50 / p90 / p99 ${spreadOf(members.map((q) => q.ms))} ms (stages p50, ms: ${stageMedians(members)})`;
  return `${group("Quotes overlapping anvil mining a block", quotes.filter(overlapping))}; ${group(
    "the others",
    quotes.filter((quote) => !overlapping(quote)),
  )}.`;
}

/** Each `Server-Timing` stage's median over some quotes, `name value` joined. */
function stageMedians(quotes: readonly QuoteSample[]): string {
  const names = [...new Set(quotes.flatMap((quote) => Object.keys(quote.stages)))];
  if (names.length === 0) return "none given";
  return names
    .map((name) => `${name} ${p50Of(quotes.flatMap((quote) => quote.stages[name] ?? []))}`)
    .join(", ");
}

const p50Of = (values: number[]) => (values.length > 0 ? median(values).toFixed(0) : "–");
const spreadOf = (values: number[]) => [50, 90, 99].map((p) => percentile(values, p).toFixed(0)).join(" / ");

/** The median of `values` in whole ms, or "-" when there are none (a run without that kind of block). */
function medianMs(values: readonly number[]): string {
  return values.length === 0 ? "-" : median(values).toFixed(0);
}

/** Each quote not answered 200, with what its error said and whether anvil was mining a block meanwhile. */
function failedQuotes(quotes: readonly QuoteSample[], blocks: readonly BlockSample[]): string[] {
  const failed = quotes.filter((quote) => quote.status !== 200);
  if (failed.length === 0) return [];
  const mining = (quote: QuoteSample) =>
    blocks.some((block) => overlaps(quote, block)) ? ", while anvil mined a block" : "";
  return [
    `- Failed quotes: ${failed
      .map(
        (quote) =>
          `${quote.pair} ${quote.status} ${quote.code ?? ""}${quote.message ? ` (${quote.message})` : ""}, ${quote.ms.toFixed(0)} ms${mining(quote)}`,
      )
      .join("; ")}.`,
  ];
}

/**
 * The answered quotes with candidates that did not simulate: one of Junction's own routes failing its run
 * means the search's exact math and the node disagreed (or the state moved under it), worth a look.
 */
function candidatesNotSimulated(quotes: readonly QuoteSample[]): string {
  const some = quotes.filter((quote) => quote.unsimulated);
  if (some.length === 0) return "Every candidate of every answered quote simulated.";
  return `Quotes with candidates that did not simulate: ${some.length} of ${quotes.length}: ${some
    .map((quote) => `${quote.pair}: ${quote.unsimulated!.join(", ")}`)
    .join("; ")}.`;
}

/** The quotes the service counted more than one round trip for, with their stages: what made them wait. */
function beyondOneRoundTrip(quotes: readonly QuoteSample[]): string {
  const many = quotes.filter((quote) => (quote.roundTrips ?? 0) > 1);
  if (many.length === 0) return "Every quote took one round trip to the node (the service's count).";
  const stages = (quote: QuoteSample) =>
    Object.entries(quote.stages)
      .map(([stage, ms]) => `${stage} ${ms.toFixed(0)}`)
      .join(", ");
  return `Quotes of more than one round trip: ${many.length} of ${quotes.length}: ${many
    .map(
      (quote) =>
        `${quote.pair} ${quote.roundTrips} (${quote.ms.toFixed(0)} ms; ${stages(quote)}${quote.openers ? `; opened by ${quote.openers}` : ""}${quote.unsimulated ? `; not simulated: ${quote.unsimulated.join(", ")}` : ""})`,
    )
    .join("; ")}.`;
}
