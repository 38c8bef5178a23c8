import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { Edge } from "./edge.ts";
import { GAS_MODEL, gasTerms, routeGas } from "./gas-model.ts";
import { quotePath } from "./path-curve.ts";
import type { Path } from "./paths.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

/** An edge of the given kind that passes its input through and crosses `ticks` ticks. */
function edge(kind: IndexedPool["kind"], ticks: number, n: number): Edge {
  const pool = { kind, fee: 3000, address: addr(0x100 + n), poolId: `0x${n}` } as unknown as IndexedPool;
  return {
    pool,
    tokenIn: addr(n),
    tokenOut: addr(n + 1),
    zeroForOne: true,
    quote: (amountIn) => ({ ok: true, amountOut: amountIn, ticksCrossed: kind === "v2" ? 0 : ticks }),
    spotRate: 1,
    marginalRate: { num: 1n, den: 1n },
    poolRef: `0x${n}`,
  };
}
const path = (...kinds: IndexedPool["kind"][]): Path => kinds.map((kind, i) => edge(kind, i + 1, i));

describe("gas model", () => {
  it("charges one V4 unlock per run of consecutive V4 hops", () => {
    const at = (p: Path) => ({
      path: p,
      ticksCrossed: p.map((_, i) => (p[i]!.pool.kind === "v2" ? 0 : i + 1)),
    });
    expect(gasTerms([at(path("v4", "v4", "v4"))])).toMatchObject({ v4Hop: 3, v4Run: 1 });
    expect(gasTerms([at(path("v4", "v2", "v4"))])).toMatchObject({ v4Hop: 2, v4Run: 2, v2Hop: 1 });
    expect(gasTerms([at(path("v3", "v4")), at(path("v4"))])).toMatchObject({
      branch: 1,
      v3Hop: 1,
      v4Hop: 2,
      v4Run: 2,
      v3TickCrossed: 1,
      v4TickCrossed: 3,
    });
  });

  it("prices a path during the search exactly as routeGas prices the route", () => {
    for (const kinds of [
      ["v4", "v4", "v3"],
      ["v3", "v4", "v4"],
      ["v4", "v2", "v4"],
      ["v2", "v2"],
      ["v4"],
    ] as IndexedPool["kind"][][]) {
      const p = path(...kinds);
      const point = quotePath(p, 1_000n)!;
      expect(GAS_MODEL.base + point.gas).toBe(routeGas([{ path: p, ticksCrossed: point.ticksCrossed }]));
    }
  });
});
