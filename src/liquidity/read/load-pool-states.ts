import type { Address, PublicClient } from "viem";
import type { MissingState } from "../concentrated/pool-state.ts";
import { poolRef } from "../pool-index/pool.ts";
import { kindOf, type PoolRef, type PoolSnapshot } from "../pool-kinds.ts";
import type { V3PoolSnapshot } from "../v3/snapshot.ts";
import type { V4PoolSnapshot } from "../v4/snapshot.ts";
import type { PoolLoadFailure } from "./concentrated-loader.ts";
import { hintExtra, type LoadJob } from "./load-job.ts";
import { DEPLOYLESS_LIMITS, type ReadLimits, type ReadStats, runReads } from "./run-reads.ts";
import type { StateHint } from "./state-hints.ts";
import { DEFAULT_WINDOW_TICKS, extendedWindow } from "./word-window.ts";

export type { PoolRef, PoolSnapshot };
export type PoolLoad =
  | { status: "loaded"; snapshot: PoolSnapshot }
  | { status: "failed"; reason: PoolLoadFailure; cause?: unknown };

export type LoadOptions = {
  /** The pinned block every read is made at (never "latest"). */
  blockNumber: bigint;
  /** The V4 PoolManager whose storage holds the V4 pools (without it V4 pools are `unsupported`). */
  v4PoolManager?: Address;
  /** Ticks either side of the price whose bitmap words are read (`DEFAULT_WINDOW_TICKS`). */
  windowTicks?: number;
  /**
   * What earlier loads saw (any block), by `poolRef` (`StateHints` keeps them): the window around that
   * tick and those initialized ticks are read speculatively in the first round, which saves one or two
   * rounds when the bitmap near the price has not changed.
   */
  hints?: ReadonlyMap<string, StateHint>;
  limits?: Partial<ReadLimits>;
};

/** Rounds after which a pool still asking for reads is failed; a pinned block converges in three. */
const MAX_ROUNDS = 6;

/**
 * Loads the swap state of many pools of every kind at one pinned block, all pools sharing each round:
 * round 1 reads V2 reserves and V3/V4 slot0 and liquidity (plus, for hinted pools, their bitmap window and
 * ticks), round 2 the bitmap words around each price, round 3 the initialized ticks those words reveal.
 * Each round's view calls go in deployless `PoolLens` calls sized to the request and response limits and its V4 slots in
 * `extsload` calls, all sent together. Pools are answered in input order; one unreadable pool fails alone
 * (`unreadable`, `notInitialized`, or `unsupported` for hooked and dynamic-fee V4 pools,
 * docs/rules.md, comparison rule 10), while a request the node did not execute rejects the whole load.
 *
 * Hints only decide what is read speculatively: every value still comes from `blockNumber`, so no price
 * or state is reused across blocks (docs/rules.md, comparison rule 14).
 */
export async function loadPoolStates(
  client: Pick<PublicClient, "call" | "readContract">,
  pools: readonly PoolRef[],
  options: LoadOptions,
): Promise<{ pools: PoolLoad[]; stats: ReadStats }> {
  return run(
    client,
    pools.map((pool) => kindOf(pool).loadJob(pool, options)),
    options,
  );
}

/**
 * Extends snapshots whose swaps came back `incomplete`: reads the missing word plus a window's worth of words
 * beyond it (or the missing tick), and the ticks they reveal, at the snapshots' own block, in two rounds
 * shared by all of them; in one when `hints` (what earlier extensions of these pools saw) name every
 * initialized tick the words reveal.
 */
export async function extendPoolStates(
  client: Pick<PublicClient, "call" | "readContract">,
  requests: readonly { snapshot: V3PoolSnapshot | V4PoolSnapshot; missing: MissingState }[],
  options: Omit<LoadOptions, "blockNumber">,
): Promise<{ pools: PoolLoad[]; stats: ReadStats }> {
  const blockNumber = requests[0]?.snapshot.blockNumber ?? 0n;
  if (requests.some(({ snapshot }) => snapshot.blockNumber !== blockNumber))
    throw new RangeError("extendPoolStates: every snapshot must be from the same block");
  const windowTicks = options.windowTicks ?? DEFAULT_WINDOW_TICKS;
  const jobs = requests.map(({ snapshot, missing }) => {
    // A missing tick needs no more words: the seeded loader reads every set bit's tick it lacks.
    const include =
      missing.kind === "bitmapWord"
        ? extendedWindow(snapshot.bitmap, missing.wordPos, windowTicks, snapshot.tickSpacing)
        : snapshot.bitmap;
    return kindOf(snapshot).extendJob!(
      snapshot,
      { ...options, blockNumber },
      { seed: snapshot, include, ...hintExtra(options, poolRef(snapshot)) },
    );
  });
  return run(client, jobs, { ...options, blockNumber });
}

async function run(
  client: Pick<PublicClient, "call" | "readContract">,
  jobs: LoadJob[],
  options: LoadOptions,
): Promise<{ pools: PoolLoad[]; stats: ReadStats }> {
  const stats: ReadStats = { roundTrips: 0, requests: 0, calls: 0, slots: 0 };
  const target = {
    client,
    blockNumber: options.blockNumber,
    limits: { ...DEPLOYLESS_LIMITS, ...options.limits },
    stats,
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pending = jobs.flatMap((job) => job.plan());
    if (pending.length === 0) break;
    const outcomes = await runReads(
      target,
      pending.map(({ read }) => read),
    );
    pending.forEach(({ apply }, index) => {
      apply(outcomes[index]!);
    });
  }
  return { pools: jobs.map((job) => job.result()), stats };
}
