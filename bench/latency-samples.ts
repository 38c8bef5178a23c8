// The latency bench's per-quote figures: by trade size, and as a file to compare two versions quote by quote.
import { writeFileSync } from "node:fs";
import { percentile } from "./measure.ts";
import type { Sample } from "./quote-latency.ts";

/** Writes every quote's figures as JSON (amounts as decimal strings, each stage's milliseconds by name). */
export function writeSamples(file: string, samples: readonly Sample[], stages: readonly string[]): void {
  writeFileSync(
    file,
    JSON.stringify(
      samples.map(
        ({
          label,
          usd,
          outcome,
          amountOut,
          ms,
          gcMs,
          pools,
          paths,
          widened,
          hops,
          roundTrips,
          stages: times,
        }) => ({
          label,
          usd: String(usd),
          outcome,
          amountOut: String(amountOut),
          widened,
          ms,
          gcMs,
          pools,
          paths,
          hops,
          roundTrips,
          stages: Object.fromEntries(stages.map((stage, i) => [stage, times[i]!.ms])),
        }),
      ),
    ),
  );
}

/** The per-size table: server time, and the state load and search stages, p50 and p99. */
export function bySize(
  samples: readonly Sample[],
  sizes: readonly bigint[],
  stages: readonly string[],
): [string[], string[][]] {
  const spread = (values: number[]) =>
    `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)}`;
  const stage = (group: readonly Sample[], name: string) =>
    group.map((s) => s.stages[stages.indexOf(name)]!.ms);
  return [
    [
      "Size",
      "Quotes",
      "p50 (ms)",
      "p99 (ms)",
      "State load p50 / p99 (ms)",
      "Search p50 / p99 (ms)",
      "Not ok",
    ],
    sizes.map((usd) => {
      const group = samples.filter((s) => s.usd === usd);
      const good = group.filter((s) => s.outcome === "ok");
      return [
        usd === 0n ? "dust ($0.01)" : `$${usd.toLocaleString("en-US")}`,
        String(group.length),
        good.length
          ? percentile(
              good.map((s) => s.ms),
              50,
            ).toFixed(1)
          : "-",
        good.length
          ? percentile(
              good.map((s) => s.ms),
              99,
            ).toFixed(1)
          : "-",
        good.length ? spread(stage(good, "state load")) : "-",
        good.length ? spread(stage(good, "search (CPU: edges, paths, split search, calldata)")) : "-",
        String(group.length - good.length),
      ];
    }),
  ];
}
