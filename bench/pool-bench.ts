import type { Devnet } from "../src/devnet/devnet.ts";
import { benchLoad, poolsAlong } from "./load-bench.ts";
import { machineLine } from "./machine.ts";
import { benchQuotes } from "./quote-bench.ts";

/** `npm run bench -- pools`: per-pool-kind quoting speed and state loading at a pinned block. */
export async function benchPools(devnet: Devnet): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const threeHop = ["LINK", "WETH", "USDC", "DAI"];
  const pair = await benchLoad(
    rpcUrl,
    manifest,
    `3-hop ${threeHop.join("→")}`,
    poolsAlong(manifest, threeHop),
  );
  const all = await benchLoad(
    rpcUrl,
    manifest,
    "every routable pool",
    manifest.pools.filter((p) => p.routable),
    3,
  );
  const quotes = benchQuotes(all.snapshots);

  return [
    "## Pool quoting and state loading",
    "",
    machineLine(`devnet ${devnet.boot.kind} boot`),
    "",
    "| Pool kind | Pools | Ticks crossed (median) | One quote | 100 amounts (quoteMany) | Per amount |",
    "|---|---:|---:|---:|---:|---:|",
    ...quotes.map(
      (q) =>
        `| ${q.kind.toUpperCase()} | ${q.pools} | ${q.ticksCrossed} | ${q.singleMicros.toFixed(1)} µs | ${q.hundredMicros.toFixed(0)} µs | ${(q.hundredMicros / 100).toFixed(2)} µs |`,
    ),
    "",
    "| State load at a pinned block | Pools | Round trips | eth_call requests | View calls | V4 slots | Wall time (median) |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...[...pair.rows, ...all.rows].map(
      (r) =>
        `| ${r.label} | ${r.pools} | ${r.roundTrips} | ${r.requests} | ${r.calls} | ${r.slots} | ${r.wallMs.toFixed(1)} ms |`,
    ),
  ];
}
