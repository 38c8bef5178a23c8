import type { Hex } from "viem";

/** A block the index synced to: its height and hash, so a later sync can tell whether it is still canonical. */
export type Tip = { number: bigint; hash: Hex };

/** Past tips kept: a reorg deeper than this many syncs rolls back to the first block scanned. */
const KEPT_TIPS = 128;

/**
 * The tips of past syncs, newest last: how far the index has scanned, and where a reorg rolls back to (the
 * newest tip still canonical). Before any tip, the index has scanned through the block before its first.
 */
export class TipHistory {
  private readonly tips: Tip[] = [];

  constructor(private readonly firstBlock: bigint) {}

  last(): Tip | undefined {
    return this.tips.at(-1);
  }

  /** The last block scanned: the newest tip, or the block before the first one scanned. */
  scannedThrough(): bigint {
    return this.tips.at(-1)?.number ?? this.firstBlock - 1n;
  }

  /**
   * Records a sync's tip after it scanned from `from`: only when it scanned anything (a sync whose head is
   * not past the newest tip adds none), or when it is the first tip. The oldest tips are forgotten.
   */
  record(tip: Tip, from: bigint): void {
    if (from <= tip.number || this.tips.length === 0) this.tips.push(tip);
    if (this.tips.length > KEPT_TIPS) this.tips.shift();
  }

  /**
   * Drops the newest tips `isCanonical` says the chain no longer holds; returns the block the index keeps
   * through. All or nothing: when `isCanonical` throws (the node cannot answer), no tip is dropped, so the
   * next sync checks them again (and rolls back their pools with them).
   */
  async rewind(isCanonical: (tip: Tip) => Promise<boolean>): Promise<bigint> {
    let kept = this.tips.length;
    while (kept > 0 && !(await isCanonical(this.tips[kept - 1]!))) kept--;
    this.tips.length = kept;
    return this.scannedThrough();
  }

  /** The tips as the persisted index keeps them: JSON, heights as decimal strings. */
  toJson(): string {
    return JSON.stringify(this.tips.map((tip) => ({ number: tip.number.toString(), hash: tip.hash })));
  }

  /** Replaces the tips with those of a persisted index (`toJson`'s format). */
  replace(json: string): void {
    this.tips.length = 0;
    for (const tip of JSON.parse(json) as { number: string; hash: Hex }[])
      this.tips.push({ number: BigInt(tip.number), hash: tip.hash });
  }
}
