import { describe, expect, it } from "vitest";
import type { PoolLoad } from "./load-pool-states.ts";
import { StateHints } from "./state-hints.ts";

const v3 = (n: number, tick: number, ticks: number[]): PoolLoad => ({
  status: "loaded",
  snapshot: {
    kind: "v3",
    address: `0x${n.toString(16).padStart(40, "0")}`,
    blockNumber: 1n,
    fee: 3000,
    sqrtPriceX96: 2n ** 96n,
    tick,
    liquidity: 1n,
    tickSpacing: 60,
    bitmap: { from: -1, to: 1, words: new Map() },
    liquidityNet: new Map(ticks.map((t) => [t, 5n])),
  },
});

describe("StateHints", () => {
  it("keeps each concentrated pool's tick and initialized ticks, never a value, and skips V2 and failures", () => {
    const hints = new StateHints();
    hints.record([
      v3(1, 120, [-60, 180]),
      {
        status: "loaded",
        snapshot: {
          kind: "v2",
          address: `0x${"2".padStart(40, "0")}`,
          blockNumber: 1n,
          reserve0: 1n,
          reserve1: 1n,
        },
      },
      { status: "failed", reason: "unreadable" },
    ]);
    expect([...hints.map]).toEqual([
      [`0x${"1".padStart(40, "0")}`, { tick: 120, initializedTicks: [-60, 180] }],
    ]);
  });

  it("replaces a pool's hint with its latest load and forgets the least recently loaded past its capacity", () => {
    const hints = new StateHints(2);
    hints.record([v3(1, 0, []), v3(2, 0, [])]);
    hints.record([v3(1, 60, [60])]);
    hints.record([v3(3, 0, [])]);
    expect([...hints.map.keys()].map((id) => Number(BigInt(id)))).toEqual([1, 3]);
    expect(hints.map.get(`0x${"1".padStart(40, "0")}`)).toEqual({ tick: 60, initializedTicks: [60] });
  });
});
