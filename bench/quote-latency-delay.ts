import type { Address } from "viem";
import { createChainClient } from "../src/chain/create-chain-client.ts";
import { REGISTRY_EVENTS } from "../src/contracts/registry-events.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { createFollowedState } from "../src/liquidity/followed-state/follow-state.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { createQuoter } from "../src/quote/create-quoter.ts";
import { QuoteError } from "../src/quote/quote-types.ts";
import { createFixtures } from "../src/simulation/fixtures.ts";
import type { RpcProxy } from "../test/rpc-proxy.ts";
import { startDelayProxy } from "./delay-proxy.ts";
import { machineLine, table } from "./machine.ts";

/** Delays added to every request to the node, in ms (`BENCH_RPC_DELAYS=0,20,50`). */
const DELAYS = (process.env.BENCH_RPC_DELAYS ?? "0,20,50").split(",").map(Number);
/**
 * A hosted node's limits the proxy enforces (`BENCH_NODE_LIMITS=none,no-batches,batch-10,logs-1000`):
 * none, every batch refused, batches over 10 calls refused, or `eth_getLogs` over 1,000 blocks refused. The service's client learns them while it syncs the
 * index, before any quote is timed (src/chain/json-rpc-http.ts).
 */
const NODE_LIMITS = (process.env.BENCH_NODE_LIMITS ?? "none").split(",");
const LIMITS: Record<string, RpcProxy["limits"]> = {
  none: {},
  "no-batches": { batches: "refused" },
  "batch-10": { batches: 10 },
  "logs-1000": { logs: { blocks: 1_000 } },
};
/** Pairs and sizes: direct pools, native ETH both ways, two and three hops; $10 to $100k. */
const PAIRS: [string, string][] = [
  ["WETH", "USDC"],
  ["USDC", "ETH"],
  ["ETH", "DAI"],
  ["WBTC", "LINK"],
  ["UNI", "WBTC"],
  ["AAVE", "USDT"],
  ["FROG", "DAI"],
  ["MOON", "GEM"],
];
const SIZES_USD = [10n, 1_000n, 100_000n];
/** Which pool state the quotes use: read at a pinned block, followed (docs/rules.md, comparison rule 14), or both (`BENCH_STATE`). */
/** The quoter's stages, in order, whose medians the table shows (quote-types.ts, StageTimings). */
const STAGES = ["pin", "state", "search", "simulate", "rank"] as const;
const STATES = (process.env.BENCH_STATE ?? "reads,followed,followed-new-block").split(",") as (
  | "reads"
  | "followed"
  | "followed-new-block"
)[];

/**
 * `npm run bench -- latency-delay`: the same quotes through `createQuoter` over the service's own chain
 * client (`createChainClient`, private transport), with the node behind a proxy that adds a fixed delay to
 * every request, as a hosted node's distance does. Per delay: server time p50/p90/p99, and what each quote
 * asked of the node, as the proxy saw it (HTTP requests, and round trips: busy periods). The quotes are warm
 * (each pair quoted once before), with no third-party providers. With followed state, the follower steps
 * (as it does on each new head in the service) before each quote is timed, so only the quote's own requests
 * count; `followed-new-block` mines a block before each quote first, as a live chain does between two
 * quotes of a pair. The last column is each stage's median (quote-types.ts, StageTimings).
 */
export async function benchQuoteLatencyDelay(devnet: Devnet): Promise<string[]> {
  const { manifest } = devnet;
  const { contracts } = manifest;
  const address = (symbol: string): Address =>
    symbol === "ETH"
      ? "0x0000000000000000000000000000000000000000"
      : (manifest.tokens.find((t) => t.symbol === symbol)!.address as Address);
  const rows: string[][] = [];
  for (const delayMs of DELAYS)
    for (const limits of NODE_LIMITS)
      for (const state of STATES) {
        if (!LIMITS[limits]) throw new Error(`BENCH_NODE_LIMITS: unknown ${limits}`);
        const proxy = await startDelayProxy(devnet.rpcUrl, delayMs, LIMITS[limits]);
        try {
          const client = createChainClient({ url: proxy.url, kind: "private" });
          const index = createPoolIndex({ client, contracts, fromBlock: BigInt(manifest.deploymentBlock) });
          await index.sync();
          const followed =
            state !== "reads"
              ? createFollowedState({
                  client,
                  pools: () => index.pools(),
                  ...(contracts.v4PoolManager ? { poolManager: contracts.v4PoolManager } : {}),
                  watch: { addresses: [contracts.builderRegistry], events: REGISTRY_EVENTS },
                  staleAfterMs: 3_000,
                })
              : undefined;
          const quote = createQuoter({
            client,
            index,
            contracts,
            fixtures: createFixtures(client),
            ...(followed ? { followed } : {}),
          });
          const run = async (from: string, to: string, usd: bigint) => {
            // As on a live chain with a quote of each pair less often than once a block.
            if (state === "followed-new-block") await mine(devnet.rpcUrl);
            await followed?.step();
            proxy.counted();
            const started = performance.now();
            try {
              const result = await quote(
                { tokenIn: address(from), tokenOut: address(to), amountIn: amountForUsd(from, usd) },
                new AbortController().signal,
              );
              return { ms: performance.now() - started, timings: result.timings, ...proxy.counted() };
            } catch (error) {
              if (!(error instanceof QuoteError)) throw error;
              return undefined;
            }
          };
          for (const [from, to] of PAIRS) await run(from, to, 500n);
          const samples: NonNullable<Awaited<ReturnType<typeof run>>>[] = [];
          for (const usd of SIZES_USD)
            for (const [from, to] of PAIRS) {
              const sample = await run(from, to, usd);
              if (sample) samples.push(sample);
            }
          const at = (values: number[], p: number) => {
            const sorted = [...values].sort((a, b) => a - b);
            return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
          };
          const ms = samples.map((s) => s.ms);
          const trips = samples.map((s) => s.roundTrips);
          const requests = samples.map((s) => s.requests);
          rows.push([
            `${delayMs} ms`,
            limits,
            state,
            String(samples.length),
            ...[50, 90, 99].map((p) => at(ms, p).toFixed(0)),
            ...[50, 90].map((p) => String(at(trips, p))),
            ...[50, 90].map((p) => String(at(requests, p))),
            STAGES.map((stage) =>
              at(
                samples.map((s) => s.timings[stage]),
                50,
              ).toFixed(1),
            ).join(" / "),
          ]);
        } finally {
          await proxy.close();
        }
      }
  return [
    "## Quote latency against a distant node",
    "",
    machineLine(
      `devnet seed ${manifest.seed}; ${PAIRS.length} pairs × ${SIZES_USD.length} sizes ($10, $1k, $100k), warm, no third-party providers; the service's chain client with a proxy adding the delay to every HTTP request`,
    ),
    "",
    ...table(
      [
        "Delay per request",
        "Node limits",
        "Pool state",
        "Quotes",
        "p50 (ms)",
        "p90 (ms)",
        "p99 (ms)",
        "Round trips p50",
        "p90",
        "HTTP requests p50",
        "p90",
        `Stage p50 (ms): ${STAGES.join(" / ")}`,
      ],
      rows,
    ),
  ];
}

/** Mines one block on the node itself (not through the proxy: it is not the quote's request). */
async function mine(rpcUrl: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
  });
  await response.text();
}
