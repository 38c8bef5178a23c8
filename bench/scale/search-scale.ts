import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTestClient, http, type PublicClient, publicActions } from "viem";
import { junctionChain } from "../../src/chain/chain.ts";
import type { Deployment } from "../../src/config/deployment.ts";
import { createRandom } from "../../src/devnet/random.ts";
import { concentratedDepth } from "../../src/liquidity/concentrated/rates.ts";
import { type IndexedPool, isRoutable, poolRef } from "../../src/liquidity/pool-index/pool.ts";
import { createPoolIndex } from "../../src/liquidity/pool-index/pool-index.ts";
import { loadPoolStates, type PoolSnapshot } from "../../src/liquidity/read/load-pool-states.ts";
import { gasConversion } from "../../src/quote/gas-conversion.ts";
import { selectPools } from "../../src/quote/select-pools.ts";
import { SIMULATION_MARGIN_GAS } from "../../src/quote/simulation-shortlist.ts";
import { edgesOf } from "../../src/routing/edge.ts";
import { enumeratePaths } from "../../src/routing/paths.ts";
import { type SearchedRoute, searchRoutes } from "../../src/routing/split-search.ts";
import { executorHops } from "../../src/routing/to-executor-route.ts";
import { machineLine, table } from "../machine.ts";
import { buildChain } from "./build-chain.ts";
import { chainCache } from "./chain-cache.ts";
import { rpc } from "./json-rpc.ts";
import { drawPair } from "./quote-loop.ts";
import { startScaleAnvil } from "./scale-anvil.ts";
import { readScaleManifest } from "./scale-manifest.ts";
import { ScaleUsageError } from "./scale-options.ts";
import { createNonces, sendAndMine } from "./send-and-mine.ts";
import { swapTxs } from "./swap-txs.ts";
import { amountForUsd } from "./universe.ts";

const USAGE =
  "usage: npm run bench -- search-scale [--pools N] [--trades N] [--rounds N] [--gas-price WEI] [--busy-blocks N]";

/**
 * `npm run bench -- search-scale`: the split search alone on the scale benchmark's chain (built or loaded
 * from its cache, see scale.ts), over the trades its quote loop asks (`drawPair`, $100-900), each on fresh
 * edges from the pools `selectPools` keeps by depth, as a quote has them. The first round runs cold, in a
 * new process, as a service's first quotes do; the later rounds warm. Prints each round's times and a
 * digest of every route found, so two versions of the search can be compared for speed and for sameness.
 * `--gas-price` replaces the node's; `--busy-blocks N` first mines N blocks of the scale bench's random
 * swaps, which leave pools priced apart as a busy chain's are between arbitrages. One core.
 */
/** Swaps in each busy block mined before the searches (`--busy-blocks`), as the scale bench's. */
const BUSY_SWAPS = 200;

export async function benchSearchScale(argv: string[], log: (line: string) => void): Promise<string[]> {
  const option = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    const value = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!Number.isInteger(value) || value < 1)
      throw new ScaleUsageError(`${name} takes a positive integer\n${USAGE}`);
    return value;
  };
  const [pools, trades, rounds] = [
    option("--pools", 10_000),
    option("--trades", 100),
    option("--rounds", 10),
  ];
  // The node's gas price at the chain's head unless given: it decides how often splits can pay for their gas.
  const gasPriceWei = argv.includes("--gas-price") ? BigInt(option("--gas-price", 1)) : undefined;
  // Blocks of 200 of the scale bench's random swaps mined first: with no arbitrage, they leave pools
  // priced apart, as a busy chain's are between arbitrages, and splits then pay far more often.
  const busyBlocks = argv.includes("--busy-blocks") ? option("--busy-blocks", 1) : 0;
  const cache = chainCache(pools, 1);
  const manifest = cache.complete
    ? readScaleManifest(cache.manifestPath)
    : await buildChain(cache, pools, 1, log);
  const deployment = JSON.parse(readFileSync(cache.deploymentPath, "utf8")) as Deployment;
  const anvil = await startScaleAnvil({ loadState: cache.statePath });
  try {
    const client = createTestClient({
      chain: junctionChain(anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
      mode: "anvil",
    }).extend(publicActions) as unknown as PublicClient;
    if (busyBlocks > 0) {
      await rpc(anvil.rpcUrl, "evm_setAutomine", [false]);
      const random = createRandom(7919);
      const nonces = await createNonces(anvil.rpcUrl, manifest.accounts.swappers);
      for (let block = 0; block < busyBlocks; block++)
        await sendAndMine(anvil.rpcUrl, swapTxs(manifest, random, BUSY_SWAPS, nonces));
      log(`search-scale: mined ${busyBlocks} blocks of ${BUSY_SWAPS} random swaps`);
    }
    const { contracts } = deployment;
    const index = createPoolIndex({ client, contracts, fromBlock: BigInt(deployment.poolsFromBlock ?? 0) });
    const { to: blockNumber } = await index.sync();
    const routable = index.pools().filter(isRoutable);
    const { pools: loads } = await loadPoolStates(client, routable, {
      blockNumber,
      v4PoolManager: contracts.v4PoolManager,
    });
    const snapshots = new Map<string, PoolSnapshot>();
    loads.forEach((load, i) => {
      if (load.status === "loaded") snapshots.set(poolRef(routable[i]!), load.snapshot);
    });
    log(`search-scale: ${snapshots.size} of ${routable.length} pools loaded at block ${blockNumber}`);
    // What the followed state tells the quoter of each pool's depth.
    const depthOf = (pool: IndexedPool, side: 0 | 1) => {
      const snapshot = snapshots.get(poolRef(pool));
      if (!snapshot) return undefined;
      if (snapshot.kind === "v2") return Number(side === 0 ? snapshot.reserve0 : snapshot.reserve1);
      return concentratedDepth(snapshot, side);
    };
    const weth = contracts.weth9;
    const gasPrice = gasPriceWei ?? (await client.getGasPrice());
    const random = createRandom(4663);
    const asked = Array.from({ length: trades }, () => {
      const [tokenIn, tokenOut] = drawPair(manifest, random);
      const usd = BigInt(random.int(100, 900));
      const kept = selectPools({ ...index, depthOf }, tokenIn.address, tokenOut.address, weth);
      return { tokenIn, tokenOut, amountIn: amountForUsd(tokenIn, usd), kept };
    });
    const rows: string[][] = [];
    const digests = new Set<string>();
    let pathCounts: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const times: number[] = [];
      const digest = createHash("sha256");
      pathCounts = [];
      for (const { tokenIn, tokenOut, amountIn, kept } of asked) {
        // Fresh edges, as each quote builds its own (their quotes' memo lives as long as they do).
        const edges = kept.flatMap((pool) => {
          const snapshot = snapshots.get(poolRef(pool));
          return snapshot ? edgesOf(pool, snapshot) : [];
        });
        const paths = enumeratePaths(edges, tokenIn.address, tokenOut.address, weth).filter((path) =>
          executorHops(path, tokenIn.address, tokenOut.address, weth),
        );
        pathCounts.push(paths.length);
        const gasToOut = gasConversion(edges, tokenOut.address, weth, gasPrice);
        const started = performance.now();
        const routes = searchRoutes(paths, {
          amountIn,
          proposeWithinGas: SIMULATION_MARGIN_GAS,
          ...(gasToOut ? { gasToOut } : {}),
        });
        times.push(performance.now() - started);
        digest.update(describe(routes));
      }
      digests.add(digest.digest("hex").slice(0, 12));
      const sorted = [...times].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      rows.push([
        round === 0 ? "1 (cold)" : String(round + 1),
        times.reduce((sum, t) => sum + t, 0).toFixed(0),
        at(0.5).toFixed(2),
        at(0.9).toFixed(2),
        sorted[sorted.length - 1]!.toFixed(1),
      ]);
      log(`search-scale: round ${round + 1} of ${rounds}`);
    }
    const paths = [...pathCounts].sort((a, b) => a - b);
    return [
      "## Search on the scale chain",
      "",
      machineLine(
        `${pools} pools (seed 1)${busyBlocks > 0 ? ` after ${busyBlocks} blocks of ${BUSY_SWAPS} random swaps` : ""}, ${trades} trades of the scale quote mix ($100-900), gas price ${gasPrice} wei, paths per trade p50 ${paths[Math.floor(paths.length / 2)]} (max ${paths[paths.length - 1]}); routes' digest ${[...digests].join(", ")}${digests.size > 1 ? " (differs between rounds: not deterministic)" : ""}`,
      ),
      "",
      ...table(["Round", "Total ms", "p50 ms", "p90 ms", "Max ms"], rows),
    ];
  } finally {
    await anvil.stop();
  }
}

/** A route set as text: each route's branches (pools, amounts in and out), for the digest. */
function describe(routes: readonly SearchedRoute[]): string {
  return `${routes
    .map((route) =>
      route.branches
        .map(
          (branch) =>
            `${branch.path.map((edge) => edge.poolRef).join(">")}:${branch.amountIn}:${branch.amountOut}`,
        )
        .join("+"),
    )
    .join("|")}\n`;
}
