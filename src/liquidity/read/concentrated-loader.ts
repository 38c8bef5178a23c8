import type { ConcentratedPoolState } from "../concentrated/pool-state.ts";
import type { Read } from "./read.ts";
import type { ReadOutcome } from "./run-reads.ts";
import { type WordRange, wordWindow } from "./word-window.ts";

/** What one pool of the batch needs read, with where each answer goes. */
export type PendingRead = { read: Read<unknown>; apply: (outcome: ReadOutcome<unknown>) => void };

/** Why a pool could not be loaded: a closed list (the cause, if any, rides along for logs). */
export type PoolLoadFailure = "unreadable" | "notInitialized" | "unsupported";

export type Slot0 = { sqrtPriceX96: bigint; tick: number; protocolFee?: number; lpFee?: number };

/** The four reads a concentrated pool kind provides (`v3Reads`, `v4Reads` bound to a pool). */
export type ConcentratedReads = {
  slot0: () => Read<Slot0>;
  liquidity: () => Read<bigint>;
  word: (wordPos: number) => Read<bigint>;
  liquidityNet: (tick: number) => Read<bigint>;
};

/**
 * Loads one V3 or V4 pool over as many rounds as it takes: slot0 and liquidity, then the bitmap words of
 * the window around the price, then the initialized ticks those words reveal. With a hint (an earlier
 * snapshot, or a tick) the words and ticks are read speculatively alongside slot0, so that a pool whose
 * bitmap has not changed near the price loads in one round. Every answer comes from the same pinned block,
 * so speculation can waste a read but never mix states.
 */
export class ConcentratedLoader {
  slot0?: Slot0;
  liquidity?: bigint;
  failure?: { reason: PoolLoadFailure; cause?: unknown };
  /** Every word read, zeros included. */
  private readonly words = new Map<number, bigint>();
  private readonly ticks = new Map<number, bigint>();
  /** The set bits of each bitmap word read, found once (the word is read once and never changes). */
  private readonly setBits = new Map<number, readonly number[]>();
  private readonly requested = new Set<string>();
  /** Whether a round has been planned (the first reads a hint's ticks). */
  private planned = false;

  constructor(
    private readonly reads: ConcentratedReads,
    private readonly tickSpacing: number,
    private readonly windowTicks: number,
    private readonly options: {
      /** Where the price and initialized ticks were at an earlier load (with a seed: an earlier widening). */
      hint?: { tick: number; ticks?: Iterable<number> };
      /** An earlier load at the same block to extend (V4 snapshots carry their fees along). */
      seed?: ConcentratedPoolState & { lpFee?: number; protocolFee?: number };
      /** Words that must be read beyond the window around the price (an extension). */
      include?: WordRange;
    } = {},
  ) {
    const seed = options.seed;
    if (seed) {
      const { sqrtPriceX96, tick, lpFee, protocolFee } = seed;
      this.slot0 = {
        sqrtPriceX96,
        tick,
        ...(lpFee === undefined ? {} : { lpFee, protocolFee: protocolFee ?? 0 }),
      };
      this.liquidity = seed.liquidity;
      for (let word = seed.bitmap.from; word <= seed.bitmap.to; word++)
        this.words.set(word, seed.bitmap.words.get(word) ?? 0n);
      for (const [tick, net] of seed.liquidityNet) this.ticks.set(tick, net);
    }
  }

  /** The words the snapshot will cover: the window around the price, plus any extension. */
  window(): WordRange | undefined {
    const tick = this.slot0?.tick ?? this.options.hint?.tick;
    if (tick === undefined) return undefined;
    let range = wordWindow(tick, this.tickSpacing, this.windowTicks);
    if (this.options.seed)
      range = {
        from: Math.min(range.from, this.options.seed.bitmap.from),
        to: Math.max(range.to, this.options.seed.bitmap.to),
      };
    const include = this.options.include;
    if (include) range = { from: Math.min(range.from, include.from), to: Math.max(range.to, include.to) };
    return range;
  }

  /** The reads of the next round; empty when the pool is loaded or failed. */
  plan(): PendingRead[] {
    if (this.failure) return [];
    const pending: PendingRead[] = [];
    const want = <T>(key: string, read: Read<T>, apply: (value: T) => void) => {
      if (this.requested.has(key)) return;
      this.requested.add(key);
      pending.push({ read, apply: (outcome) => this.settle(outcome, apply as (value: unknown) => void) });
    };
    if (this.slot0 === undefined)
      want("slot0", this.reads.slot0(), (value) => {
        if (value.sqrtPriceX96 === 0n) this.failure = { reason: "notInitialized" };
        this.slot0 = value;
      });
    if (this.liquidity === undefined)
      want("liquidity", this.reads.liquidity(), (value) => (this.liquidity = value));
    const window = this.window();
    if (window) {
      for (let word = window.from; word <= window.to; word++) {
        if (!this.words.has(word))
          want(`w${word}`, this.reads.word(word), (value) => this.words.set(word, value));
      }
    }
    // A hint's ticks are read once, in the first round, beside whatever else that round reads.
    const ticks = new Set(this.planned ? [] : (this.options.hint?.ticks ?? []));
    this.planned = true;
    if (window) for (const tick of this.initializedTicks(window)) ticks.add(tick);
    for (const tick of ticks) {
      if (!this.ticks.has(tick))
        want(`t${tick}`, this.reads.liquidityNet(tick), (value) => this.ticks.set(tick, value));
    }
    return pending;
  }

  /** Whether everything the snapshot needs has been read (slot0, liquidity, the window, its ticks). */
  isComplete(): boolean {
    const window = this.window();
    if (this.failure || this.slot0 === undefined || this.liquidity === undefined || !window) return false;
    for (let word = window.from; word <= window.to; word++) if (!this.words.has(word)) return false;
    for (const tick of this.initializedTicks(window)) if (!this.ticks.has(tick)) return false;
    return true;
  }

  /** The loaded state; call once `isComplete()`. */
  state(): ConcentratedPoolState {
    const window = this.window()!;
    const words = new Map<number, bigint>();
    for (let word = window.from; word <= window.to; word++) {
      const value = this.words.get(word)!;
      if (value !== 0n) words.set(word, value);
    }
    const liquidityNet = new Map<number, bigint>();
    for (const tick of this.initializedTicks(window)) liquidityNet.set(tick, this.ticks.get(tick)!);
    return {
      sqrtPriceX96: this.slot0!.sqrtPriceX96,
      tick: this.slot0!.tick,
      liquidity: this.liquidity!,
      tickSpacing: this.tickSpacing,
      bitmap: { from: window.from, to: window.to, words },
      liquidityNet,
    };
  }

  /** Ticks whose bits are set in the words of `window` read so far. */
  private *initializedTicks(window: WordRange): Generator<number> {
    for (let word = window.from; word <= window.to; word++) {
      for (const bit of this.bitsOf(word)) yield (word * 256 + bit) * this.tickSpacing;
    }
  }

  /** The set bits of a word read so far, lowest first (none for a word not read yet). */
  private bitsOf(word: number): readonly number[] {
    const known = this.setBits.get(word);
    if (known) return known;
    const value = this.words.get(word);
    if (value === undefined) return [];
    // Scanning the binary digits costs no bigint shift per bit.
    const binary = value.toString(2);
    const bits: number[] = [];
    for (let i = binary.length - 1; i >= 0; i--)
      if (binary.charCodeAt(i) === 49) bits.push(binary.length - 1 - i);
    this.setBits.set(word, bits);
    return bits;
  }

  private settle(outcome: ReadOutcome<unknown>, apply: (value: unknown) => void): void {
    if (this.failure) return;
    if (!outcome.ok) this.failure = { reason: "unreadable", cause: outcome.error };
    else apply(outcome.value);
  }
}
