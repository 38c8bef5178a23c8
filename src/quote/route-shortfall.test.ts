import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { Assessment, QuoteRequest } from "./quote-types.ts";
import { routeShortfalls } from "./route-shortfall.ts";

const A: Address = "0x000000000000000000000000000000000000000a";
const B: Address = "0x000000000000000000000000000000000000000b";
const POOL = "0x00000000000000000000000000000000000000Cc";
const request: QuoteRequest = { tokenIn: A, tokenOut: B, amountIn: 1_000n };
const pool = { kind: "v2", address: POOL, token0: A, token1: B } as unknown as IndexedPool;

const assessment = (extra: Partial<Assessment>): Assessment =>
  ({
    id: "service-1",
    provider: "service",
    amountOut: 990n,
    branches: [
      {
        amountIn: 1_000n,
        amountOut: 990n,
        hops: [{ pool, tokenIn: A, tokenOut: B, amountIn: 1_000n, amountOut: 990n }],
      },
    ],
    simulation: { status: "simulated", amountOut: 990n, gas: 100_000n },
    ...extra,
  }) as Assessment;

describe("routeShortfalls", () => {
  it("names our own routes that delivered less than their exact quote, with what to look at", () => {
    const short = assessment({
      simulation: { status: "failed", reason: "insufficient-output", stage: "simulation", delivered: 987n },
    });
    expect(routeShortfalls(request, 42n, [short])).toEqual([
      {
        tokenIn: A,
        tokenOut: B,
        amountIn: "1000",
        block: "42",
        quoted: "990",
        delivered: "987",
        branches: [`1000: v2 ${POOL.toLowerCase()}`],
      },
    ]);
  });

  it("ignores routes that ran as quoted, other failures, and third-party candidates", () => {
    const reverted = { status: "failed", reason: "reverted", stage: "simulation" } as const;
    const short = { status: "failed", reason: "insufficient-output", stage: "simulation" } as const;
    expect(
      routeShortfalls(request, 42n, [
        assessment({}),
        assessment({ simulation: reverted }),
        assessment({ provider: "aggregator-a", simulation: short }),
      ]),
    ).toEqual([]);
  });
});
