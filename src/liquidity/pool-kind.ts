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
 * generic code looks the kind up by the `kind` field its pool or state carries, and never hands one kind's
 * value to another's methods.
 *
 * - `Pool`: what identifies it for reading (the index's pool of this kind fits it);
 * - `Snapshot`: its state, the one shape of it: what a direct read at a pinned block gives a quote, and
 *   what the head follower holds after a block (read over a wider window, with what following needs beside
 *   it) and a quote reads as it is.
 */
export type PoolKind<Pool, Snapshot> = {
  // Reading.
  /** Its load at `options.blockNumber`, sharing each round with the batch's other pools. */
  loadJob: (pool: Pool, options: LoadOptions) => LoadJob;
  /** Concentrated kinds: a load extending `snapshot` at its block (`extendPoolStates`). */
  extendJob?: (snapshot: Snapshot, options: LoadOptions, extra: ConcentratedExtra) => LoadJob;
  /** Where its price and initialized ticks were, to read them speculatively next time (none for V2). */
  hintOf: (snapshot: Snapshot) => StateHint | undefined;
  /**
   * The first field in which two states of one pool at one block differ, or undefined (over the words the
   * narrower covers, for a kind read over a window of them).
   */
  differenceOf: (a: Snapshot, b: Snapshot) => string | undefined;

  // Following.
  /** The events by which it changes what a swap reads: a closed list (docs/rules.md, comparison rule 14). */
  events: readonly AbiEvent[];
  /** A log of one of `events`: the key (`poolRef`) of the pool it is about and what it does, or undefined. */
  eventOf: (
    log: FollowedLog,
    poolManager: Address | undefined,
  ) => { key: string; event: PoolEvent } | undefined;
  /**
   * The state after `events` in log order (throws `UnfollowableError` for one it cannot apply, or for a
   * state without what following needs). The caller sets its block.
   */
  applyEvents: (state: Snapshot, events: readonly PoolEvent[]) => Snapshot;
  /** Reads beyond a direct read that following needs: each held initialized tick's gross liquidity. */
  grossReads: (
    pool: Pool,
    snapshot: Snapshot,
    poolManager: Address | undefined,
  ) => { tick: number; read: Read<bigint> }[];
  /** Its followed state from a direct read over the held window and the `grossReads`' answers. */
  followedOf: (snapshot: Snapshot, gross: ReadonlyMap<number, bigint> | undefined) => Snapshot;
  /**
   * A followed state as a quote reads it over `words` (by default what a quote reads first around its
   * price), exactly what a direct read over them gives and sharing the state's own maps, or undefined when
   * the state does not hold them: the follower then reads it anew around its price in the same step, before
   * a quote must read it itself. Absent: a kind whose state a quote reads whole (V2).
   */
  heldView?: (state: Snapshot, words?: WordRange) => Snapshot | undefined;
  /**
   * A held state as a quote's first direct read of it would give it, in maps of its own (what a sample
   * hints its read with). Absent: a kind read whole (V2).
   */
  firstRead?: (state: Snapshot) => Snapshot;
  /** How much of its `side` token it holds, in raw units (for ranking pools, never for quoting). */
  depthOf: (state: Snapshot, side: 0 | 1) => number | undefined;

  // Quoting.
  /** A quoter for many exact-input amounts in one direction (throws `SwapMathError` for an amount it refuses). */
  exactIn: (snapshot: Snapshot, zeroForOne: boolean) => (amountIn: bigint) => HopResult;
  /** The output per unit of input at zero input, after the fee, exactly (docs/rules.md, price impact rule 1). */
  marginalRate: (snapshot: Snapshot, zeroForOne: boolean) => Ratio;
  /** `marginalRate` as a float, exact to about 1e-15 relative. */
  spotRate: (snapshot: Snapshot, zeroForOne: boolean) => number;
};
