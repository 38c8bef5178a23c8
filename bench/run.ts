import { cpus } from "node:os";
import { startBenchDevnet } from "./bench-devnet.ts";
import { benchLoad, poolsAlong } from "./load-bench.ts";
import { benchQuotes } from "./quote-bench.ts";

/**
 * `npm run bench`: quoting and state-loading numbers on the embedded devnet, printed as markdown tables a
 * reader can compare across commits. Not a test: nothing here asserts a time.
 */
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const devnet = await startBenchDevnet(log);
try {
  const { manifest, rpcUrl } = devnet;
  const cpu = cpus();
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

  const lines = [
    `Machine: ${cpu[0]?.model ?? "unknown cpu"}, ${cpu.length} cores, Node ${process.version}; devnet ${devnet.boot.kind} boot.`,
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
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  await devnet.stop();
}
