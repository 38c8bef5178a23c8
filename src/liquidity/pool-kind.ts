import type { AbiEvent, Address } from "viem";
import type { MissingState } from "./concentrated/pool-state.ts";
import type { FollowedLog, PoolEvent } from "./followed-state/pool-event.ts";
import type { Ratio } from "./math/ratio.ts";
import type { ConcentratedExtra, LoadJob } from "./read/load-job.ts";
import type { LoadOptions } from "./read/load-pool-states.ts";
import type { Read } from "./read/read.ts";
import type { StateHint } from "./read/state-hints.ts";
import type { WordRange } from "./read/word-window.ts";

/** One exact-input hop on a snapshot: filled, stopped at the price limit, or short of loaded state. */
export type HopResult =
  | { status: "filled" | "priceLimit"; amountOut: bigint; ticksCrossed: number }
  | { status: "incomplete"; missing: MissingState };

/**
 * Everything the generic code needs of one kind of pool (V2, V3, V4), so that a kind is one folder
 * (`src/liquidity/<kind>/index.ts`) listed once in `poolKinds` (docs/architecture.md, "Pool kinds"). The
 * generic code looks the kind up by the `kind` field its pool, snapshot or followed state carries, and
 * never hands one kind's value to another's methods.
 *
 * - `Pool`: what identifies it for reading (the index's pool of this kind fits it);
 * - `Snapshot`: its swap state at one pinned block, what a quote reads;
 * - `Followed`: its state as the head follower holds it, replaced whole when a block changes it.
 */
export type PoolKind<Pool, Snapshot, Followed> = {
  // Reading.
  /** Its load at `options.blockNumber`, sharing each round with the batch's other pools. */
  loadJob: (pool: Pool, options: LoadOptions) => LoadJob;
  /** Concentrated kinds: a load extending `snapshot` at its block (`extendPoolStates`). */
  extendJob?: (snapshot: Snapshot, options: LoadOptions, extra: ConcentratedExtra) => LoadJob;
  /** Where its price and initialized ticks were, to read them speculatively next time (none for V2). */
  hintOf: (snapshot: Snapshot) => StateHint | undefined;
  /** The first field in which two snapshots of one pool at one block differ, or undefined. */
  differenceOf: (a: Snapshot, b: Snapshot) => string | undefined;

  // Following.
  /** The events by which it changes what a swap reads: a closed list (docs/rules.md, comparison rule 14). */
  events: readonly AbiEvent[];
  /** A log of one of `events`: the key (`poolRef`) of the pool it is about and what it does, or undefined. */
  eventOf: (
    log: FollowedLog,
    poolManager: Address | undefined,
  ) => { key: string; event: PoolEvent } | undefined;
  /** The state after `events` in log order (throws `UnfollowableError` for one it cannot apply). */
  applyEvents: (state: Followed, events: readonly PoolEvent[]) => Followed;
  /** Reads beyond the snapshot that following needs: each held initialized tick's gross liquidity. */
  grossReads: (
    pool: Pool,
    snapshot: Snapshot,
    poolManager: Address | undefined,
  ) => { tick: number; read: Read<bigint> }[];
  /** Its followed state from a snapshot read over the held window and the `grossReads`' answers. */
  followedOf: (snapshot: Snapshot, gross: ReadonlyMap<number, bigint> | undefined) => Followed;
  /** The snapshot a direct read over `words` would give, or undefined when they reach past the held ones. */
  snapshotOf: (pool: Pool, state: Followed, blockNumber: bigint, words?: WordRange) => Snapshot | undefined;
  /**
   * Whether `state` no longer holds what a quote reads first (a concentrated pool's price left its held
   * words): the follower then reads the pool anew in the same step, before a quote must read it itself.
   * Absent: a kind whose followed state always covers it (V2).
   */
  outgrown?: (state: Followed) => boolean;
  /** How much of its `side` token it holds, in raw units (for ranking pools, never for quoting). */
  depthOf: (state: Followed, side: 0 | 1) => number | undefined;

  // Quoting.
  /** A quoter for many exact-input amounts in one direction (throws `SwapMathError` for an amount it refuses). */
  exactIn: (snapshot: Snapshot, zeroForOne: boolean) => (amountIn: bigint) => HopResult;
  /** The output per unit of input at zero input, after the fee, exactly (docs/rules.md, price impact rule 1). */
  marginalRate: (snapshot: Snapshot, zeroForOne: boolean) => Ratio;
  /** `marginalRate` as a float, exact to about 1e-15 relative. */
  spotRate: (snapshot: Snapshot, zeroForOne: boolean) => number;
};
