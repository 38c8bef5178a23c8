import type { PublicClient } from "viem";
import { gasPriceAt } from "../chain/gas-price.ts";
import { type PinnedBlock, pinBlock } from "../chain/pin-block.ts";
import { countRpc, type RpcCount } from "../chain/rpc-tally.ts";
import { fromNode } from "../chain/upstream-error.ts";
import type { Contracts } from "../config/deployment.ts";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import { mergeWithinCap } from "../liquidity/pool-index/fallback-probe.ts";
import { type IndexedPool, poolRef } from "../liquidity/pool-index/pool.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { WIDENED_WINDOW_TICKS } from "../liquidity/read/word-window.ts";
import type { QuoteProvider } from "../providers/provider.ts";
import type { Edge } from "../routing/edge.ts";
import type { Path } from "../routing/paths.ts";
import { searchRoutes } from "../routing/split-search.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import { createTransferFeeMeter, type TransferFeeMeter } from "../simulation/transfer-fee.ts";
import { createCandidateAssessment } from "./assess-candidates.ts";
import { createBlockReads, sameFeeTerms } from "./block-reads.ts";
import { gasConversion } from "./gas-conversion.ts";
import { QUOTE_LIMITS } from "./limits.ts";
import { createMarketReader } from "./market-reader.ts";
import { type ProviderOutcome, providerCandidates, providersAsked } from "./provider-candidates.ts";
import {
  type Candidate,
  type FeeTerms,
  QuoteError,
  type QuoteRequest,
  type QuoteResult,
  type StageTimings,
} from "./quote-types.ts";
import { rankCandidates } from "./rank.ts";
import { type RouteShortfall, routeShortfalls } from "./route-shortfall.ts";
import { createSearchWarmUp } from "./search-warm-up.ts";
import { selectPools } from "./select-pools.ts";
import { serviceCandidate } from "./service-candidate.ts";
import { SIMULATION_MARGIN_GAS, simulationShortlist } from "./simulation-shortlist.ts";
import { aggregatorPayee, throughExecutor } from "./through-executor.ts";
import { timed } from "./timed.ts";
import { type Explained, explainTransferFees, noExecutableRoute } from "./transfer-fee-explanation.ts";
import type { Misses } from "./widen-pools.ts";

export type QuoterDeps = {
  client: PublicClient;
  index: PoolIndex;
  contracts: Contracts;
  fixtures: ReturnType<typeof createFixtures>;
  /** Simulated transfers that explain failures by a token's fee on transfer (default: the quoter's own). */
  transferFees?: TransferFeeMeter;
  /** Third-party sources compared beside Junction's own routes (docs/rules.md, comparison rule 1). */
  providers?: readonly QuoteProvider[];
  /** Each provider's deadline per quote (default QUOTE_LIMITS.providerDeadlineMs). */
  providerDeadlineMs?: number;
  /** Sees each provider's outcome per variant (metrics, logs). */
  onProviderOutcome?: (outcome: ProviderOutcome) => void;
  /** Sees each completed quote's stage timings and node requests (metrics). */
  onTimings?: (timings: StageTimings, rpc: RpcCount) => void;
  /** Hears each of our own routes that delivered less than its exact quote at the quote block (a warning). */
  onShortfall?: (shortfall: RouteShortfall) => void;
  /**
   * Pool state that follows the chain (docs/rules.md, comparison rule 14): when fresh, its newest block is the quote block (with the
   * gas price read with it) and its pools are not read again; otherwise the quote pins and reads.
   */
  followed?: FollowedSource;
};

/** What the pinned block offers the search: gas price, fees, loaded pools and their executable paths. */
type Market = {
  gasPrice: bigint;
  /** The fee terms built on: read, or guessed (block-reads.ts, `guessFeeTerms`). */
  fees: FeeTerms;
  edges: Edge[];
  pools: IndexedPool[];
  paths: Path[];
  fallbackProbe: QuoteResult["search"]["fallbackProbe"];
  gasToOut: ((gas: number | bigint) => bigint) | undefined;
  /** Concentrated pools a quote found short of loaded ticks during the search, with what was missing. */
  misses: Misses;
  /** Pools loaded wider than the first window. */
  widened: Set<string>;
};

type Block = PinnedBlock;
/** The quote block, with its gas price when the followed state already knows it. */
type Pinned = { block: Block; gasPrice?: bigint };

/**
 * The comparison pipeline shared by every surface (docs/rules.md, comparison rules 1-17), as named stages:
 * pin one block; ask the third-party providers (each under its own deadline) while loading the verified
 * pools for the pair and searching them (fallback V4 probes only when nothing connects); then assess every
 * deduplicated candidate, ours and theirs alike, by simulating its complete calldata at that block from a
 * synthetic caller with exact balance and allowance; rank simulated-first by assessed output net of gas.
 * The quote function carries `warm` and `warmSearch` (search-warm-up.ts), for the service to call as it
 * starts.
 */
export function createQuoter(deps: QuoterDeps) {
  const { client, index, contracts } = deps;
  const weth = contracts.weth9;
  const { loadEdges, heldEdges, executablePaths, probeFallback, widen } = createMarketReader(deps);
  const { assessOursAndTheirs } = createCandidateAssessment({
    client,
    fixtures: deps.fixtures,
    collector: contracts.settlementCollector,
  });
  const transferFees = deps.transferFees ?? createTransferFeeMeter(client, deps.fixtures);
  const reads = createBlockReads(client, contracts.builderRegistry, deps.followed);
  // With followed state, the pools kept when the cap bites are the deepest (select-pools.ts).
  const depthOf = deps.followed?.depthOf;
  const poolSource = depthOf ? { ...index, depthOf } : index;
  const warmSearch = createSearchWarmUp({
    index,
    poolSource,
    followed: deps.followed,
    contracts,
    heldEdges,
    executablePaths,
    guessFeeTerms: reads.guessFeeTerms,
  });

  return Object.assign(quote, { warm, warmSearch });

  /** A node failure anywhere in the pipeline is UpstreamUnavailableError; our own errors pass through. */
  async function quote(request: QuoteRequest, signal: AbortSignal): Promise<QuoteResult> {
    const { value, rpc } = await countRpc(() => fromNode(() => comparePaths(request, signal)));
    deps.onTimings?.(value.timings, rpc);
    return { ...value, rpc };
  }

  /**
   * Reads the fee terms of a quote without a builder at the newest block, for the process's first quotes
   * to guess theirs from (`guessFeeTerms`) and so build and simulate in one round trip; a guess never
   * decides a fee, so a failed warm-up only costs those quotes a round trip. The pair is one token with
   * itself, which no pair fee can name (the registry refuses identical tokens): the schedule's default.
   */
  async function warm(): Promise<void> {
    const block = deps.followed?.quoteBlock()?.block ?? (await pinBlock(client));
    await reads.feeTerms({ tokenIn: weth, tokenOut: weth, amountIn: 0n }, block);
  }

  /**
   * A pair's first quote at a registry state builds on guessed fee terms (`guessFeeTerms`) and reads its
   * own, and its tokens' code, with its simulations: one round trip where there were two. Terms that
   * differ from the guess start the quote again on the terms read (`speculate` false); a token without code
   * fails the quote whatever else did.
   */
  async function comparePaths(
    request: QuoteRequest,
    signal: AbortSignal,
    speculate = true,
  ): Promise<Omit<QuoteResult, "rpc">> {
    const asked = providersAsked(deps.providers ?? [], request.provider);
    const ownSearch = request.provider === undefined || request.provider === "service";
    const timings: StageTimings = { pin: 0, state: 0, search: 0, providers: 0, simulate: 0, rank: 0 };
    const pinned = await timed(timings, "pin", () => pinQuoteBlock(signal));
    const { block } = pinned;
    const guess = speculate ? reads.guessFeeTerms(request, block) : undefined;
    // Providers are asked in parallel with our own search; providerCandidates never rejects.
    const external = timed(timings, "providers", () =>
      providerCandidates(asked, request, block.number, signal, {
        ...(deps.providerDeadlineMs ? { deadlineMs: deps.providerDeadlineMs } : {}),
        ...(deps.onProviderOutcome ? { onOutcome: deps.onProviderOutcome } : {}),
        ...(request.throughExecutor
          ? {
              taker: contracts.executor,
              recipient: aggregatorPayee(request, contracts.executor, guess?.builderBps),
            }
          : {}),
      }),
    );
    // The tokens' code and the fee terms (when guessed) are read with the simulations, in their batch.
    let tokensChecked: Promise<void> | undefined;
    const checkTokens = () => (tokensChecked ??= reads.checkTokens(request, block));
    let feesRead: Promise<FeeTerms> | undefined;
    const guessedWrong = async () => feesRead !== undefined && !sameFeeTerms(guess!, await feesRead);
    try {
      const loaded = await timed(timings, "state", () =>
        loadMarket(request, pinned, ownSearch, guess, signal),
      );
      const { market, own } = ownSearch
        ? await searchOwnCandidates(request, loaded, block, signal, timings)
        : { market: loaded, own: [] };
      const terms = { executor: contracts.executor, fees: market.fees, timestamp: block.timestamp };
      const theirs = external.then((candidates) =>
        candidates.map((candidate) =>
          request.throughExecutor ? throughExecutor(candidate, request, terms) : candidate,
        ),
      );
      const at = { block, gasPrice: market.gasPrice, gasToOut: market.gasToOut };
      checkTokens().catch(() => {});
      if (guess) {
        feesRead = reads.feeTerms(request, block);
        feesRead.catch(() => {});
      }
      const assessments = await assessOursAndTheirs(request, own, theirs, at, signal, timings);
      // Only when a candidate failed: is a token it moves taxed on transfer (one eth_call at the block)?
      const explained = await timed(timings, "simulate", () =>
        explainTransferFees(transferFees, request, block.number, assessments),
      );
      for (const shortfall of routeShortfalls(request, block.number, assessments))
        deps.onShortfall?.(shortfall);
      await checkTokens();
      if (!(await guessedWrong())) {
        const result = await timed(timings, "rank", () => rankAndSelect(request, block, market, explained));
        return { ...result, timings };
      }
    } catch (error) {
      // A node failure or an abort is final as it is. Of our own refusals, an unknown token comes first,
      // then the fee terms' own failure (a builder fee above its cap); one on guessed terms that were
      // wrong says nothing.
      if (!(error instanceof QuoteError)) throw error;
      await checkTokens();
      if (!(await guessedWrong())) throw error;
    }
    // Once, on the terms read: the retry does not guess.
    return comparePaths(request, signal, false);
  }

  /**
   * Stage 1: the one block every candidate is assessed at: the followed state's newest block when it is
   * fresh (no request), else the node's latest (the index is synced here only if it never was).
   */
  async function pinQuoteBlock(signal: AbortSignal): Promise<Pinned> {
    const followed = index.syncedTo() ? deps.followed?.quoteBlock() : undefined;
    if (followed) return followed;
    const block = await pinBlock(client);
    // The follower keeps the index at the tip; a pool it knows that is newer than the block fails to load
    // at the block and drops out, so the index is synced here only if it never was.
    if (!index.syncedTo()) await index.sync(block);
    signal.throwIfAborted();
    return { block };
  }

  /** Stage 2: gas price, fee terms and the verified pools for the pair at the block, with their paths. */
  async function loadMarket(
    request: QuoteRequest,
    { block, gasPrice: known }: Pinned,
    ownSearch: boolean,
    guessedFees: FeeTerms | undefined,
    signal: AbortSignal,
  ): Promise<Market> {
    const { tokenIn, tokenOut } = request;
    const misses: Misses = new Map();
    const [gasPrice, loaded, fees] = await Promise.all([
      known ?? gasPriceAt(client, block),
      loadEdges(selectPools(poolSource, tokenIn, tokenOut, weth), block, misses),
      guessedFees ?? reads.feeTerms(request, block),
    ]);
    let { edges, pools } = loaded;
    let paths = executablePaths(edges, tokenIn, tokenOut);
    let fallbackProbe: QuoteResult["search"]["fallbackProbe"] = null;
    // docs/rules.md, comparison rule 11: probe common hook-free V4 keys only when nothing connects, and
    // only once (never on a deployment without V4).
    const probed =
      paths.length === 0 && ownSearch ? await probeFallback(tokenIn, tokenOut, block.number) : undefined;
    if (probed) {
      fallbackProbe = { keys: probed.keys, found: probed.pools.length };
      const merged = mergeWithinCap(
        pools.map((pool) => ({ ref: poolRef(pool), pool })),
        probed.pools.map((pool) => ({ ref: poolRef(pool), pool })),
        QUOTE_LIMITS.maxPools,
      );
      const added = merged.slice(pools.length).map((entry) => entry.pool);
      if (added.length > 0) {
        const extra = await loadEdges(added, block, misses);
        edges = [...edges, ...extra.edges];
        pools = [...pools, ...extra.pools];
        paths = executablePaths(edges, tokenIn, tokenOut);
      }
    }
    signal.throwIfAborted();
    const gasToOut = gasConversion(edges, tokenOut, weth, gasPrice);
    return {
      gasPrice,
      fees,
      edges,
      pools,
      paths,
      fallbackProbe,
      gasToOut,
      misses,
      widened: new Set(),
    };
  }

  /**
   * Stage 3: Junction's own split search over the paths, each route built into executor calldata. When the
   * search found pools whose quotes ran past their loaded ticks (a large trade), those pools are read
   * WIDENED_WINDOW_TICKS wide at the same block and the search runs once more; the first search stops as
   * soon as ranking the paths has found them, before its split search, whose work would be redone.
   */
  async function searchOwnCandidates(
    request: QuoteRequest,
    loaded: Market,
    block: Block,
    signal: AbortSignal,
    timings: StageTimings,
  ): Promise<{ market: Market; own: Candidate[] }> {
    const search = (market: Market, widenFirst: boolean) => {
      market.misses.clear();
      const started = performance.now();
      const routes = searchRoutes(market.paths, {
        amountIn: request.amountIn,
        proposeWithinGas: SIMULATION_MARGIN_GAS,
        ...(market.gasToOut ? { gasToOut: market.gasToOut } : {}),
        // Pools already found short are read wider before the split search, which would only run again.
        ...(widenFirst ? { abandon: () => market.misses.size > 0 } : {}),
      });
      timings.search += performance.now() - started;
      return routes;
    };
    let market = loaded;
    let routes = search(market, true);
    if (market.misses.size > 0) {
      market = await timed(timings, "state", () =>
        extendMarket(request, loaded, WIDENED_WINDOW_TICKS, block),
      );
      signal.throwIfAborted();
      routes = search(market, false);
    }
    const own = simulationShortlist(routes, market.gasToOut).flatMap(
      (route, i) =>
        serviceCandidate(request, route, i, {
          fees: market.fees,
          timestamp: block.timestamp,
          executor: contracts.executor,
          weth,
        }) ?? [],
    );
    return { market, own };
  }

  /**
   * The market with the pools it found short reloaded `windowTicks` past their edge at the block (from
   * followed state when it holds them that wide), their edges and paths anew.
   */
  async function extendMarket(
    request: QuoteRequest,
    market: Market,
    windowTicks: number,
    block: Block,
  ): Promise<Market> {
    const replaced = await widen(market.misses, windowTicks, block);
    const edges = [
      ...market.edges.filter((edge) => !replaced.has(edge.poolRef)),
      ...[...replaced.values()].flat(),
    ];
    return {
      ...market,
      edges,
      widened: new Set([...market.widened, ...replaced.keys()]),
      paths: executablePaths(edges, request.tokenIn, request.tokenOut),
      gasToOut: gasConversion(edges, request.tokenOut, weth, market.gasPrice),
    };
  }

  /** Stage 5: rank and select (the block was checked canonical with the simulations). */
  async function rankAndSelect(
    request: QuoteRequest,
    block: Block,
    market: Market,
    { assessments, warnings: feeWarnings }: Explained,
  ): Promise<Omit<QuoteResult, "timings" | "rpc">> {
    const ranked = rankCandidates(assessments);
    const selected = ranked[0]!;
    if (selected.simulation.status === "failed" || selected.simulation.status === "expired")
      throw noExecutableRoute(feeWarnings);

    const { fees, gasToOut } = market;
    const warnings: string[] = [...feeWarnings];
    if (selected.simulation.status === "unverified") {
      warnings.push("the selected candidate could not be simulated; it is unverified, not proven executable");
    }
    if (!gasToOut)
      warnings.push("no gas conversion into the output token; candidates are ranked by output alone");
    if (fees.builder?.registered && !fees.builder.enabled)
      warnings.push("the builder is suspended: no builder fee is charged");
    if (selected.provider !== "service")
      warnings.push(
        `the selected quote is ${selected.provider}'s: its own fees are in its price, and no service fee is added`,
      );
    return {
      request,
      block,
      gasPrice: market.gasPrice,
      fees,
      selected,
      comparison: assessments,
      search: {
        pools: market.pools.length,
        paths: market.paths.length,
        fallbackProbe: market.fallbackProbe,
        widenedPools: market.widened.size,
      },
      warnings,
    };
  }
}
