import { stepEdges } from "../src/liquidity/concentrated/step-edges.ts";
import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { quoteV2ExactIn } from "../src/liquidity/v2/get-amount-out.ts";
import type { V3PoolSnapshot } from "../src/liquidity/v3/snapshot.ts";
import { quoteManyV3, quoteV3ExactIn } from "../src/liquidity/v3/swap.ts";
import type { V4PoolSnapshot } from "../src/liquidity/v4/snapshot.ts";
import { quoteManyV4, quoteV4ExactIn } from "../src/liquidity/v4/swap.ts";
import { v4SwapFee } from "../src/liquidity/v4/swap-fee.ts";
import { median, microsPerCall } from "./measure.ts";

export type QuoteTiming = {
  kind: "v2" | "v3" | "v4";
  pools: number;
  /** Median over pools and directions of the initialized ticks a single quote crosses. */
  ticksCrossed: number;
  /** Median microseconds for one exact-input quote. */
  singleMicros: number;
  /** Median microseconds for 100 amounts on one pool and direction (a fresh path each time). */
  hundredMicros: number;
};

/** The trade a split search would size on this pool: deep enough to cross a few initialized ticks. */
function tradeSize(pool: PoolSnapshot, zeroForOne: boolean): bigint {
  if (pool.kind === "v2") return (zeroForOne ? pool.reserve0 : pool.reserve1) / 50n;
  const fee = pool.kind === "v3" ? BigInt(pool.fee) : v4SwapFee(pool, zeroForOne);
  const { edges } = stepEdges(pool, pool.kind, zeroForOne, fee);
  // Half-way to the last edge the loaded window can price: a large trade, still exact.
  return (edges[edges.length - 1] ?? 2n) / 2n || 1n;
}

/** The split search's grid on one pool: 1%, 2%, ..., 100% of the trade. */
const grid = (trade: bigint) => Array.from({ length: 100 }, (_, i) => (trade * BigInt(i + 1)) / 100n || 1n);

/**
 * Times exact-input quoting per pool kind on real devnet snapshots: one amount, and the 100 amounts of a
 * split search's grid through `quoteMany` (which builds the pool's stepped path once).
 */
export function benchQuotes(snapshots: readonly PoolSnapshot[]): QuoteTiming[] {
  const rows: QuoteTiming[] = [];
  for (const kind of ["v2", "v3", "v4"] as const) {
    const single: number[] = [];
    const hundred: number[] = [];
    const crossed: number[] = [];
    const pools = snapshots.filter((s) => s.kind === kind);
    for (const pool of pools) {
      for (const zeroForOne of [true, false]) {
        const trade = tradeSize(pool, zeroForOne);
        const amounts = grid(trade);
        if (pool.kind === "v2") {
          single.push(microsPerCall(() => quoteV2ExactIn(pool, zeroForOne, trade), 40));
          hundred.push(microsPerCall(() => amounts.map((a) => quoteV2ExactIn(pool, zeroForOne, a)), 40));
          continue;
        }
        const [one, many] =
          pool.kind === "v3"
            ? [
                () => quoteV3ExactIn(pool as V3PoolSnapshot, zeroForOne, trade),
                () => quoteManyV3(pool as V3PoolSnapshot, zeroForOne, amounts),
              ]
            : [
                () => quoteV4ExactIn(pool as V4PoolSnapshot, zeroForOne, trade),
                () => quoteManyV4(pool as V4PoolSnapshot, zeroForOne, amounts),
              ];
        const result = one();
        if (result.status === "incomplete") throw new Error("benchmark amounts must be within the window");
        crossed.push(result.ticksCrossed);
        single.push(microsPerCall(one, 40));
        hundred.push(microsPerCall(many, 40));
      }
    }
    rows.push({
      kind,
      pools: pools.length,
      ticksCrossed: crossed.length ? median(crossed) : 0,
      singleMicros: median(single),
      hundredMicros: median(hundred),
    });
  }
  return rows;
}
