import { poolRef } from "../pool-index/pool.ts";
import { kindOf } from "../pool-kinds.ts";
import type { PoolLoad } from "./load-pool-states.ts";

/** Where a concentrated pool's price was, and which ticks near it were initialized, when last loaded. */
export type StateHint = { tick: number; initializedTicks?: readonly number[] };

/**
 * What the last load of each concentrated pool saw, so the next load, at a newer block, reads the bitmap
 * window and the ticks it will most likely need in its first round instead of finding them over three.
 * Only positions are kept, never a value: every price, liquidity and tick still comes from the new block
 * (docs/rules.md, comparison rule 14). Bounded: the least recently loaded pools are forgotten first.
 */
export class StateHints {
  private readonly hints = new Map<string, StateHint>();

  constructor(private readonly capacity = 20_000) {}

  /** The hints to pass to `loadPoolStates`. */
  get map(): ReadonlyMap<string, StateHint> {
    return this.hints;
  }

  /** Remembers where each loaded V3/V4 pool's price and initialized ticks were. */
  record(loads: readonly PoolLoad[]): void {
    for (const load of loads) {
      if (load.status !== "loaded") continue;
      const hint = kindOf(load.snapshot).hintOf(load.snapshot);
      if (!hint) continue;
      const id = poolRef(load.snapshot);
      this.hints.delete(id);
      this.hints.set(id, hint);
    }
    for (const id of this.hints.keys()) {
      if (this.hints.size <= this.capacity) break;
      this.hints.delete(id);
    }
  }
}
