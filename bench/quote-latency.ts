import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { junctionChain } from "../src/chain/chain.ts";
import { coalescingTransport } from "../src/chain/coalescing-transport.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { QuoteError } from "../src/quote/quote-types.ts";
import { selectPools } from "../src/quote/select-pools.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import { watchGcPauses } from "./gc-pauses.ts";
import { bySize, writeSamples } from "./latency-samples.ts";
import { countBy, mean, stageTimes, waves } from "./latency-stages.ts";
import { machineLine, table } from "./machine.ts";
import { percentile } from "./measure.ts";
import { longestChain, type RecordedRequest, recordRequests, roundTrips } from "./rpc-recorder.ts";

/** Pairs quoted: direct pools, native ETH in and out, and tokens two or three hops apart. */
const PAIRS: [string, string][] = [
  ["WETH", "USDC"],
  ["USDC", "WETH"],
  ["USDC", "USDT"],
  ["DAI", "USDC"],
  ["WBTC", "WETH"],
  ["WETH", "LINK"],
  ["AAVE", "WETH"],
  ["UNI", "LINK"],
  ["USDC", "OP"],
  ["USDT", "TINY"],
  ["ETH", "USDC"],
  ["USDC", "ETH"],
  ["ETH", "WBTC"],
  ["LINK", "ETH"],
  ["ETH", "DAI"],
  ["OP", "ETH"],
  ["ETH", "AAVE"],
  ["FROG", "ETH"],
  ["LINK", "USDT"],
  ["AAVE", "USDT"],
  ["WBTC", "LINK"],
  ["FROG", "DAI"],
  ["OP", "DAI"],
  ["SOLA", "DAI"],
  ["NSPC", "USDT"],
  ["UNI", "WBTC"],
  ["MOON", "DAI"],
  ["GEM", "LINK"],
  ["TINY", "AAVE"],
  ["MOON", "GEM"],
  ["TINY", "LINK"],
  ["FROG", "GEM"],
  ["TINY", "OP"],
  ["MOON", "TINY"],
];
/** Trade sizes in USD at the universe's reference prices; 0 stands for dust (one cent). */
const SIZES_USD = [0n, 10n, 1_000n, 100_000n, 1_000_000n, 10_000_000n];

/** The size of the warm-up quotes, one per pair. */
const WARM_UP_USD = 500n;

/** The quote whose round trips are listed one by one. */
const TYPICAL_PAIR = "WETH→USDC";
const TYPICAL_USD = 1_000n;

/** The quoter's stages, told apart by the requests each makes (the pipeline itself is not instrumented). */
const STAGES = [
  "pin block",
  "gas price, token checks, pool selection",
  "state load",
  "search (CPU: edges, paths, split search, calldata)",
  "simulation (fixtures, eth_simulateV1 or eth_call)",
  "rank, response",
] as const;

export type Sample = {
  label: string;
  usd: bigint;
  outcome: string;
  hops: number;
  /** What the search looked at (`QuoteResult.search`). */
  pools: number;
  paths: number;
  /** Concentrated pools read past their first window (`QuoteResult.search.widenedPools`). */
  widened: number;
  /** The selected candidate's gross output (before the service fee), for comparing versions. */
  amountOut: bigint;
  ms: number;
  requests: number;
  roundTrips: number;
  chain: number;
  networkMs: number;
  /** When the quote started (performance.now), and the garbage collection pauses while it ran (ms). */
  startedAt: number;
  gcMs: number;
  selectMs: number;
  stages: { ms: number; networkMs: number }[];
  methods: Map<string, number>;
  /** Milliseconds each request of a method was in flight, for the per-method table. */
  durations: Map<string, number[]>;
  log: RecordedRequest[];
};

/**
 * `npm run bench -- latency`: sequential quotes of mixed pairs and sizes through `createQuoter` on the full
 * devnet universe with no third-party providers, over a chain client built as `createChainClient` builds a
 * private one, with a recorder between its coalescing layer and HTTP. Server time is the wall time of
 * `quote()`; requests are HTTP requests; round trips are given as a lower bound (busy periods of the
 * transport, `roundTrips`) and an upper bound (`longestChain`).
 */
export async function benchQuoteLatency(devnet: Devnet): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const { contracts } = manifest;
  const recorder = recordRequests(http(rpcUrl, { timeout: 10_000, retryCount: 0 }));
  const client = createPublicClient({
    chain: junctionChain(rpcUrl),
    transport: coalescingTransport(recorder.transport),
    cacheTime: 0,
    batch: { multicall: false },
  }) as PublicClient;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(manifest.deploymentBlock) });
  await index.sync();
  const quote = createQuoter({ client, index, contracts, fixtures: createFixtures(client) });

  const address = (symbol: string): Address =>
    symbol === "ETH"
      ? "0x0000000000000000000000000000000000000000"
      : (manifest.tokens.find((t) => t.symbol === symbol)!.address as Address);
  const lower = (a: string | undefined) => a?.toLowerCase();
  const stageOf = (request: RecordedRequest): "block" | "checks" | "load" | "simulation" | "other" => {
    if (request.method === "eth_getBlockByNumber") return "block";
    if (request.method === "eth_gasPrice" || request.method === "eth_getCode") return "checks";
    if (
      request.method === "eth_createAccessList" ||
      request.method === "eth_estimateGas" ||
      request.method === "eth_simulateV1"
    )
      return "simulation";
    if (request.method !== "eth_call") return "other";
    const to = request.to;
    if (to === undefined || to === lower(contracts.v4PoolManager)) return "load";
    if (to === lower(contracts.builderRegistry)) return "checks";
    return "simulation";
  };

  // Warm-up, timed but kept out of the statistics: the JIT, and the first quote with each input token,
  // which finds the token's balance and allowance slots once per process (docs/rules.md, comparison rule 3).
  const warmUp: number[] = [];
  for (const [from, to] of PAIRS) {
    const started = performance.now();
    await quote(
      { tokenIn: address(from), tokenOut: address(to), amountIn: amountForUsd(from, WARM_UP_USD) },
      new AbortController().signal,
    ).catch((error: unknown) => {
      if (!(error instanceof QuoteError)) throw error;
    });
    warmUp.push(performance.now() - started);
  }

  // More rounds give the tail percentiles more samples (p99 of one round is its third-slowest quote).
  const rounds = Math.max(1, Number(process.env.BENCH_LATENCY_ROUNDS ?? 1) || 1);
  const samples: Sample[] = [];
  const gc = watchGcPauses();
  for (let round = 0; round < rounds; round++)
    for (const usd of SIZES_USD) {
      for (const [from, to] of PAIRS) {
        const amountIn = usd === 0n ? amountForUsd(from, 1n) / 100n : amountForUsd(from, usd);
        const [tokenIn, tokenOut] = [address(from), address(to)];
        const selectStarted = performance.now();
        selectPools(index, tokenIn, tokenOut, contracts.weth9);
        const selectMs = performance.now() - selectStarted;

        const first = recorder.log.length;
        const started = performance.now();
        let outcome = "ok";
        let [hops, pools, paths, widened] = [0, 0, 0, 0];
        let amountOut = 0n;
        try {
          const result = await quote({ tokenIn, tokenOut, amountIn }, new AbortController().signal);
          hops = Math.max(...result.selected.branches.map((b) => b.hops.length));
          ({ pools, paths, widenedPools: widened } = result.search);
          amountOut = result.selected.grossAmountOut;
          if (result.selected.simulation.status !== "simulated") outcome = result.selected.simulation.status;
        } catch (error) {
          if (!(error instanceof QuoteError)) throw error;
          outcome = error.code;
        }
        const ended = performance.now();
        const requests = recorder.log.slice(first);
        const methods = new Map<string, number>();
        const durations = new Map<string, number[]>();
        for (const r of requests) {
          methods.set(r.method, (methods.get(r.method) ?? 0) + 1);
          durations.set(r.method, [...(durations.get(r.method) ?? []), r.end - r.start]);
        }
        samples.push({
          label: `${from}→${to}`,
          usd,
          outcome,
          hops,
          pools,
          paths,
          widened,
          amountOut,
          ms: ended - started,
          startedAt: started,
          gcMs: 0,
          requests: requests.length,
          ...roundTrips(requests),
          chain: longestChain(requests),
          selectMs,
          stages: stageTimes(requests, stageOf, started, ended),
          methods,
          durations,
          log: requests.map((r) => ({ ...r, start: r.start - started, end: r.end - started })),
        });
      }
    }

  const pausedWithin = await gc.stop();
  for (const sample of samples) sample.gcMs = pausedWithin(sample.startedAt, sample.startedAt + sample.ms);

  // Every quote's figures as JSON, for looking into the slow ones (`BENCH_LATENCY_SAMPLES=<file>`).
  if (process.env.BENCH_LATENCY_SAMPLES) writeSamples(process.env.BENCH_LATENCY_SAMPLES, samples, STAGES);
  const ok = samples.filter((s) => s.outcome === "ok");
  const quantiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
    return { p50: at(50), p90: at(90), p99: at(99), max: sorted[sorted.length - 1]!, mean: mean(values) };
  };
  const row = (name: string, values: number[], digits: number) => {
    const q = quantiles(values);
    return [name, ...[q.p50, q.p90, q.p99, q.max, q.mean].map((v) => v.toFixed(digits))];
  };
  const latency = quantiles(ok.map((s) => s.ms));
  const trips = quantiles(ok.map((s) => s.roundTrips));
  const chains = quantiles(ok.map((s) => s.chain));
  const verdict = (met: boolean) => (met ? "met" : "**not met**");
  const outcomes = countBy(samples.map((s) => s.outcome));
  const methodTotals = new Map<string, number>();
  for (const s of ok) for (const [m, c] of s.methods) methodTotals.set(m, (methodTotals.get(m) ?? 0) + c);
  const totalMean = mean(ok.map((s) => s.ms));
  const typical = ok.find((s) => s.label === TYPICAL_PAIR && s.usd === TYPICAL_USD) ?? ok[0]!;

  return [
    "## Quote latency",
    "",
    machineLine(
      `devnet seed ${manifest.seed}, ${devnet.boot.kind} boot, ${index.pools().length} indexed pools, no third-party providers; ${samples.length} sequential quotes (${PAIRS.length} pairs × ${SIZES_USD.length} sizes${rounds > 1 ? ` × ${rounds} rounds` : ""})`,
    ),
    "",
    `Warm-up, not in the statistics: one $${WARM_UP_USD} quote per pair (${warmUp.length}), p50 ${quantiles(warmUp).p50.toFixed(0)} ms, max ${quantiles(warmUp).max.toFixed(0)} ms (the JIT, and each input token's storage slots found once per process).`,
    "",
    `Outcomes: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}. Statistics below are over the ${ok.length} quotes that selected a simulated route.`,
    "",
    ...table(
      ["Per quote", "p50", "p90", "p99", "max", "mean"],
      [
        row(
          "server time (ms)",
          ok.map((s) => s.ms),
          1,
        ),
        row(
          "pools loaded",
          ok.map((s) => s.pools),
          0,
        ),
        row(
          "executable paths searched",
          ok.map((s) => s.paths),
          0,
        ),
        row(
          "HTTP requests",
          ok.map((s) => s.requests),
          0,
        ),
        row(
          "round trips, lower bound (busy periods)",
          ok.map((s) => s.roundTrips),
          0,
        ),
        row(
          "round trips, upper bound (longest chain)",
          ok.map((s) => s.chain),
          0,
        ),
        row(
          "time waiting on the node (ms)",
          ok.map((s) => s.networkMs),
          1,
        ),
        row(
          "local time (ms)",
          ok.map((s) => s.ms - s.networkMs),
          1,
        ),
        row(
          "garbage collection pauses (ms)",
          ok.map((s) => s.gcMs),
          1,
        ),
      ],
    ),
    "",
    `First targets: p50 ≤ 150 ms: ${verdict(latency.p50 <= 150)} (${latency.p50.toFixed(0)} ms); p99 ≤ 400 ms: ${verdict(latency.p99 <= 400)} (${latency.p99.toFixed(0)} ms); ≤ 6 round trips: ${verdict(trips.p99 <= 6)} (lower bound p50 ${trips.p50}, max ${trips.max}; upper bound p50 ${chains.p50}, max ${chains.max}).`,
    "",
    `Current targets: p50 ≤ 60 ms: ${verdict(latency.p50 <= 60)}; p99 ≤ 150 ms: ${verdict(latency.p99 <= 150)}; ≤ 3 round trips: ${verdict(trips.p50 <= 3)} (p50 ${trips.p50}).`,
    "",
    "Where the time goes (stages told apart by the requests they make; contiguous, so they add up to the server time):",
    "",
    ...table(
      [
        "Stage",
        "p50 (ms)",
        "p90 (ms)",
        "p99 (ms)",
        "max (ms)",
        "mean (ms)",
        "Share of mean",
        "Of it waiting on the node (mean)",
      ],
      [
        ...STAGES.map((stage, i) => {
          const values = ok.map((s) => s.stages[i]!.ms);
          const waiting = mean(ok.map((s) => s.stages[i]!.networkMs));
          return [
            ...row(stage, values, 1),
            `${((100 * mean(values)) / totalMean).toFixed(0)}%`,
            `${waiting.toFixed(1)} ms`,
          ];
        }),
        [
          ...row(
            "`selectPools` alone, timed apart (CPU)",
            ok.map((s) => s.selectMs),
            2,
          ),
          "",
          "",
        ],
      ],
    ),
    "",
    `Round trips of one quote (${typical.label}, $${TYPICAL_USD.toLocaleString("en-US")}; ${typical.ms.toFixed(1)} ms): the busy periods of the transport in order, overlapping requests sharing one.`,
    "",
    ...table(
      ["Round trip", "Starts at (ms)", "Lasts (ms)", "Requests"],
      waves(typical.log).map((wave, i) => [
        String(i + 1),
        wave.start.toFixed(1),
        (wave.end - wave.start).toFixed(1),
        [...countBy(wave.requests.map((r) => `${r.method} (${stageOf(r)})`))]
          .map(([m, c]) => (c > 1 ? `${c} × ${m}` : m))
          .join(", "),
      ]),
    ),
    "",
    ...table(
      ["JSON-RPC method", "Requests per quote (mean)", "In flight p50 (ms)", "In flight p90 (ms)"],
      [...methodTotals].map(([method, count]) => {
        const times = ok.flatMap((s) => s.durations.get(method) ?? []);
        return [
          method,
          (count / ok.length).toFixed(2),
          percentile(times, 50).toFixed(1),
          percentile(times, 90).toFixed(1),
        ];
      }),
    ),
    "",
    ...table(
      [
        "Selected route",
        "Quotes",
        "p50 (ms)",
        "p99 (ms)",
        "Round trips p50 (lower, upper)",
        "HTTP requests p50",
      ],
      [1, 2, 3].flatMap((hops) => {
        const group = ok.filter((s) => s.hops === hops);
        if (group.length === 0) return [];
        return [
          [
            `${hops} hop${hops > 1 ? "s" : ""} (longest branch)`,
            String(group.length),
            quantiles(group.map((s) => s.ms)).p50.toFixed(1),
            quantiles(group.map((s) => s.ms)).p99.toFixed(1),
            `${quantiles(group.map((s) => s.roundTrips)).p50}, ${quantiles(group.map((s) => s.chain)).p50}`,
            String(quantiles(group.map((s) => s.requests)).p50),
          ],
        ];
      }),
    ),
    "",
    ...table(...bySize(samples, SIZES_USD, STAGES)),
  ];
}
