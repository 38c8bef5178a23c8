import type { Address, Hex } from "viem";
import type { Contracts } from "../config/deployment.ts";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { Edge } from "../routing/edge.ts";
import type { Path } from "../routing/paths.ts";
import { searchRoutes } from "../routing/split-search.ts";
import { gasConversion } from "./gas-conversion.ts";
import type { FeeTerms, QuoteRequest } from "./quote-types.ts";
import { type PoolSource, selectPools } from "./select-pools.ts";
import { serviceCandidate } from "./service-candidate.ts";
import { SIMULATION_MARGIN_GAS, simulationShortlist } from "./simulation-shortlist.ts";

/** Tokens whose pairs the warm-up searches: the most connected, where most quotes and most paths are. */
const WARM_UP_TOKENS = 6;
/** Trade sizes as fractions of the input token's deepest pool: small (single paths) to splitting. */
const WARM_UP_FRACTIONS = [1e-4, 1e-3, 1e-2] as const;

/**
 * Searches the warm-up runs: enough for V8 to optimize the search's functions (on the scale chain, a
 * process's first 100 searches took 2.3 times as long as the next 100; `npm run bench -- search-scale`),
 * about half a second of CPU.
 */
const WARM_UP_SEARCHES = 48;

/** A trade the warm-up runs through the search: real pools, a size that makes the search work. */
export type WarmUpTrade = { tokenIn: Address; tokenOut: Address; amountIn: bigint };

/**
 * The trades the search warm-up runs (`createSearchWarmUp`): every ordered pair among the
 * tokens in the most pools, each at a ten-thousandth, a thousandth and a hundredth of what the input
 * token's deepest pool holds of it (by `depthOf`, the followed state's), the sizes of one pair before the
 * next pair's, so that however many are run, each size is. A token whose depth is unknown is left out.
 */
export function warmUpTrades(
  pools: readonly IndexedPool[],
  depthOf: (pool: IndexedPool, side: 0 | 1) => number | undefined,
): WarmUpTrade[] {
  const count = new Map<Address, number>();
  const deepest = new Map<Address, number>();
  for (const pool of pools)
    for (const side of [0, 1] as const) {
      const token = side === 0 ? pool.token0 : pool.token1;
      count.set(token, (count.get(token) ?? 0) + 1);
      const depth = depthOf(pool, side);
      if (depth !== undefined && Number.isFinite(depth) && depth > (deepest.get(token) ?? 0))
        deepest.set(token, depth);
    }
  const tokens = [...count.entries()]
    .filter(([token]) => deepest.has(token))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, WARM_UP_TOKENS)
    .map(([token]) => token);
  const trades: WarmUpTrade[] = [];
  for (const tokenIn of tokens)
    for (const tokenOut of tokens) {
      if (tokenIn === tokenOut) continue;
      for (const fraction of WARM_UP_FRACTIONS) {
        const amountIn = BigInt(Math.floor(deepest.get(tokenIn)! * fraction));
        if (amountIn > 0n) trades.push({ tokenIn, tokenOut, amountIn });
      }
    }
  return trades;
}

/**
 * The quoter's `warmSearch`: runs the pipeline's own stages (choosing pools, edges, paths, gas conversion,
 * the split search, the shortlist's executor calldata) over real trades on the followed state
 * (`warmUpTrades`), with no node request, so that V8 has compiled them before the first quotes: run cold,
 * the search takes about three times as long (docs/benchmarks.md, Scale). Yields to the event loop between
 * trades, stops at `searches` or once `stopped` says so; nothing it computes is kept (rule 14), so the
 * followed state's newest block serves however old it is. Resolves to how many searches it ran: none
 * without followed state. `deps` are the quoter's own (create-quoter.ts, market-reader.ts, block-reads.ts).
 */
export function createSearchWarmUp(deps: {
  index: PoolIndex;
  poolSource: PoolSource;
  followed: FollowedSource | undefined;
  contracts: Contracts;
  /** Edges of the pools the followed state holds at the block, with no node request. */
  heldEdges: (pools: readonly IndexedPool[], block: { number: bigint; hash: Hex }) => Edge[];
  executablePaths: (edges: Edge[], tokenIn: Address, tokenOut: Address) => Path[];
  guessFeeTerms: (request: QuoteRequest, block: { hash: Hex }) => FeeTerms | undefined;
}): (options?: { searches?: number; stopped?: () => boolean }) => Promise<number> {
  const { index, poolSource, followed, contracts } = deps;
  const weth = contracts.weth9;
  return async (options = {}) => {
    const depthOf = followed?.depthOf;
    const pinned = followed?.newestBlock?.() ?? followed?.quoteBlock();
    if (!depthOf || !pinned?.gasPrice) return 0;
    const { block, gasPrice } = pinned;
    const limit = options.searches ?? WARM_UP_SEARCHES;
    let searched = 0;
    for (const trade of warmUpTrades(index.pools(), depthOf)) {
      if (searched >= limit || options.stopped?.()) break;
      const edges = deps.heldEdges(selectPools(poolSource, trade.tokenIn, trade.tokenOut, weth), block);
      const paths = deps.executablePaths(edges, trade.tokenIn, trade.tokenOut);
      if (paths.length === 0) continue;
      const gasToOut = gasConversion(edges, trade.tokenOut, weth, gasPrice);
      const routes = searchRoutes(paths, {
        amountIn: trade.amountIn,
        proposeWithinGas: SIMULATION_MARGIN_GAS,
        ...(gasToOut ? { gasToOut } : {}),
      });
      const fees = deps.guessFeeTerms(trade, block);
      if (fees)
        for (const [order, route] of simulationShortlist(routes, gasToOut).entries()) {
          const terms = { fees, timestamp: block.timestamp, executor: contracts.executor, weth };
          serviceCandidate(trade, route, order, terms);
        }
      searched++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return searched;
  };
}
