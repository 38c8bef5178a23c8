import type { Devnet } from "../src/devnet/devnet.ts";
import { benchAggregatorGas } from "./aggregator-gas.ts";
import { startBenchDevnet } from "./bench-devnet.ts";
import { benchBuilderApi } from "./builder-api.ts";
import { benchDevnetSave } from "./devnet-save.ts";
import { benchFollowedMemory } from "./followed-memory.ts";
import { calibrateGas } from "./gas-calibration.ts";
import { benchIndexRestart } from "./index-restart.ts";
import { benchPartnerApi } from "./partner-api.ts";
import { benchPools } from "./pool-bench.ts";
import { benchQuoteLatency } from "./quote-latency.ts";
import { benchQuoteLatencyDelay } from "./quote-latency-delay.ts";
import { benchRouteQuality } from "./route-quality.ts";
import { benchScale } from "./scale/scale.ts";
import { ScaleUsageError } from "./scale/scale-options.ts";
import { benchSearchScale } from "./scale/search-scale.ts";
import { benchSelectPools } from "./select-pools.ts";
import { benchSelectQuality } from "./select-quality.ts";
import { benchWebhooks } from "./webhooks.ts";

/**
 * `npm run bench [-- <name>...]`: numbers on the embedded devnet, printed as markdown tables a reader can
 * compare across commits (progress goes to stderr). Each benchmark runs on its own private devnet; with no
 * name, all of them run in order. Not tests: nothing here asserts a time.
 *
 * `npm run bench -- scale [--pools N ...]` is apart: it builds (or loads from its cache) a chain of its own
 * and takes its own flags, so it runs alone and only when named.
 */
const BENCHMARKS: Record<string, { about: string; run: (devnet: Devnet) => Promise<string[]> }> = {
  pools: { about: "per-pool quoting speed and state loading", run: benchPools },
  gas: { about: "fit GAS_MODEL to executor receipts", run: calibrateGas },
  "aggregator-gas": {
    about: "aggregator transactions' receipt gas, direct and through the executor",
    run: benchAggregatorGas,
  },
  latency: { about: "end-to-end quote latency and RPC round trips", run: benchQuoteLatency },
  "latency-delay": {
    about: "quote latency, round trips and requests with the node 0, 20 and 50 ms away",
    run: benchQuoteLatencyDelay,
  },
  "followed-memory": { about: "heap held by followed pool state, devnet and 10x", run: benchFollowedMemory },
  quality: {
    about: "split search against an exhaustive reference and a convex bound",
    run: (devnet) => benchRouteQuality(devnet, log),
  },
  builders: { about: "builder API latency per endpoint; quota, key lookups/s", run: benchBuilderApi },
  partners: {
    about: "partner API latency: token lookup, quotes with and without a transaction",
    run: benchPartnerApi,
  },
  restart: {
    about: "pool index start-up on a 100,000-block chain, with and without the persisted index",
    run: (devnet) => benchIndexRestart(devnet, log),
  },
  "select-pools": {
    about: "choosing a quote's pools on synthetic indexes of 300 to 30,000 pools",
    run: benchSelectPools,
  },
  "select-quality": {
    about: "whether the 96 pools a quote keeps cost output on hub pairs of 3,000 and 10,000-pool universes",
    run: benchSelectQuality,
  },
  webhooks: {
    about: "settlement event delivery latency, and throughput to a slow receiver beside quotes",
    run: benchWebhooks,
  },
  save: {
    about: "the devnet's chain saves: cost, and what kill -9 loses after a receipt",
    run: (devnet) => benchDevnetSave(devnet, log),
  },
};

/** Benchmarks that bring their own chain and read the rest of the command line as their flags. */
const STANDALONE: Record<string, { about: string; run: (argv: string[]) => Promise<string[]> }> = {
  scale: {
    about:
      "the service at a busy chain's scale (--pools N --swaps-per-block K ...), run as an operator runs it",
    run: (argv) => benchScale(argv, log),
  },
  "search-scale": {
    about:
      "the split search alone, cold and warm, on the scale chain's quote mix (--pools N --trades N --rounds N)",
    run: (argv) => benchSearchScale(argv, log),
  },
};

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const asked = process.argv.slice(2);
const standalone = STANDALONE[asked[0] ?? ""];
if (standalone) {
  const started = performance.now();
  try {
    const lines = await standalone.run(asked.slice(1));
    process.stdout.write(`${lines.join("\n")}\n\n`);
  } catch (error) {
    if (!(error instanceof ScaleUsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  log(`${asked[0]}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  const list = Object.entries({ ...BENCHMARKS, ...STANDALONE }).map(
    ([name, { about }]) => `  ${name.padEnd(8)} ${about}`,
  );
  const alone = unknown.filter((name) => name in STANDALONE);
  process.stderr.write(
    alone.length > 0
      ? `${alone.join(", ")} runs alone and first, with its own flags: npm run bench -- ${alone[0]} [flags]\n`
      : `unknown benchmark: ${unknown.join(", ")}\nbenchmarks:\n${list.join("\n")}\n`,
  );
  process.exit(2);
}
for (const name of asked.length > 0 ? asked : Object.keys(BENCHMARKS)) {
  log(`${name}: starting a private devnet`);
  const devnet = await startBenchDevnet(log);
  try {
    const started = performance.now();
    const lines = await BENCHMARKS[name]!.run(devnet);
    process.stdout.write(`${lines.join("\n")}\n\n`);
    log(`${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await devnet.stop();
  }
}
