import type { Hex } from "viem";
import type { PoolSnapshot } from "../read/load-pool-states.ts";

/** A block the followed state has applied, with what the node suggested as gas price when it was seen. */
export type AppliedBlock = {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
  baseFeePerGas: bigint | null;
  /** `eth_gasPrice` read with the head this block was applied from (0 when the node gave none). */
  gasSuggestion: bigint;
  /**
   * Since which block the watched contracts (the builder registry) are unchanged: the hash of the newest
   * block up to this one in which one of them logged, or of the first block applied after a reset.
   */
  epoch: Hex;
};

type Entry = AppliedBlock & { undo: Map<string, PoolSnapshot | undefined> };

/**
 * Followed pool states keyed by block: the states after the newest applied block, and for each of the last
 * `depth` blocks the states its changes replaced, so the state of a pool at any retained block can be told,
 * and a reorg rewinds to the common ancestor by undoing the blocks it took back.
 */
export class BlockJournal {
  private readonly current = new Map<string, PoolSnapshot>();
  private readonly blocks: Entry[] = [];
  private joinsAndLeaves = 0;

  constructor(private readonly depth = 64) {}

  head(): AppliedBlock | undefined {
    return this.blocks.at(-1);
  }

  has(hash: Hex): boolean {
    return this.blocks.some((block) => block.hash === hash);
  }

  /** The retained block `hash`, or undefined. */
  block(hash: Hex): AppliedBlock | undefined {
    return this.blocks.findLast((block) => block.hash === hash);
  }

  get size(): number {
    return this.current.size;
  }

  keys(): IterableIterator<string> {
    return this.current.keys();
  }

  /**
   * Changes whenever a pool starts or stops being held (never when a held pool's state is replaced): a
   * reader that lists the held pools lists them again only when this moved.
   */
  get membership(): number {
    return this.joinsAndLeaves;
  }

  /** The pool's state after block `hash`, or undefined when the block is not retained or the pool not followed then. */
  stateAt(key: string, hash: Hex): PoolSnapshot | undefined {
    let i = this.blocks.length - 1;
    let state = this.current.get(key);
    for (; i >= 0 && this.blocks[i]!.hash !== hash; i--) {
      const undo = this.blocks[i]!.undo;
      if (undo.has(key)) state = undo.get(key);
    }
    return i >= 0 ? state : undefined;
  }

  /** The newest state of a pool. */
  latest(key: string): PoolSnapshot | undefined {
    return this.current.get(key);
  }

  /** Starts applying `block` (a child of the head, or the first block after a reset). */
  begin(block: AppliedBlock): void {
    const head = this.head();
    if (head && block.parentHash !== head.hash) throw new RangeError("begin: not a child of the head");
    this.blocks.push({ ...block, undo: new Map() });
    if (this.blocks.length > this.depth) this.blocks.shift();
  }

  /** Sets (or, with undefined, forgets) a pool's state as of the head block. */
  set(key: string, state: PoolSnapshot | undefined): void {
    const head = this.blocks.at(-1);
    if (!head) throw new RangeError("set: no block begun");
    const before = this.current.get(key);
    if (!head.undo.has(key)) head.undo.set(key, before);
    if (!before !== !state) this.joinsAndLeaves++;
    if (state) this.current.set(key, state);
    else this.current.delete(key);
  }

  /** Undoes the blocks after `hash`; false (nothing undone) when `hash` is not retained. */
  rewindTo(hash: Hex): boolean {
    if (!this.has(hash)) return false;
    while (this.blocks.at(-1)!.hash !== hash) {
      const entry = this.blocks.pop()!;
      for (const [key, before] of entry.undo) {
        if (!before !== !this.current.has(key)) this.joinsAndLeaves++;
        if (before) this.current.set(key, before);
        else this.current.delete(key);
      }
    }
    return true;
  }

  /** Forgets everything: the next block begun starts afresh. */
  reset(): void {
    if (this.current.size > 0) this.joinsAndLeaves++;
    this.current.clear();
    this.blocks.length = 0;
  }
}
