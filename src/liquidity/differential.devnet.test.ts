import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { quoterV2Abi } from "../contracts/abis/QuoterV2.ts";
import { uniswapV2Router02Abi } from "../contracts/abis/UniswapV2Router02.ts";
import { v4QuoterAbi } from "../contracts/abis/V4Quoter.ts";
import type { ManifestPool } from "../devnet/manifest.ts";
import { createRandom, type Random } from "../devnet/random.ts";
import { stepEdges } from "./concentrated/step-edges.ts";
import type { ExactInResult } from "./concentrated/swap-exact-in.ts";
import { extendPoolStates, loadPoolStates, type PoolSnapshot } from "./read/load-pool-states.ts";
import { quoteV2ExactIn } from "./v2/get-amount-out.ts";
import type { V3PoolSnapshot } from "./v3/snapshot.ts";
import { quoteManyV3, quoteV3ExactIn } from "./v3/swap.ts";
import type { V4PoolSnapshot } from "./v4/snapshot.ts";
import { quoteManyV4, quoteV4ExactIn } from "./v4/swap.ts";
import { v4SwapFee } from "./v4/swap-fee.ts";

/**
 * The differential test of our exact math against the official quoters: random (pool, direction, amount) cases on every routable
 * pool of the devnet, our off-chain quote from state read at a pinned block against the official quoters
 * (QuoterV2, V4Quoter) and Router02.getAmountsOut at that same block, every case asserted wei for wei.
 * Amounts are drawn to land everywhere that matters: dust, inside the loaded window, exactly on and
 * beside tick-crossing edges, beyond the window (exercising incomplete -> extend -> retry), and past
 * what the pool holds (the price limit).
 */
const SEED = 0x4663_0004;
const CASES = { v2: 300, v3: 1100, v4: 1100 };
const MAX_V4_IN = (1n << 127n) - 1n;

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

type Concentrated = V3PoolSnapshot | V4PoolSnapshot;
type Case = { pool: ManifestPool; zeroForOne: boolean; amount: bigint; regime: string };
type Tally = {
  cases: number;
  crossed: number;
  limit: number;
  extended: number;
  regimes: Map<string, number>;
};

const feeOf = (s: Concentrated, zeroForOne: boolean) =>
  s.kind === "v3" ? BigInt(s.fee) : v4SwapFee(s, zeroForOne);
const quote = (s: Concentrated, zeroForOne: boolean, amount: bigint): ExactInResult =>
  s.kind === "v3" ? quoteV3ExactIn(s, zeroForOne, amount) : quoteV4ExactIn(s, zeroForOne, amount);

const edges = (s: Concentrated, zeroForOne: boolean) => {
  const { edges: found, end } = stepEdges(s, s.kind, zeroForOne, feeOf(s, zeroForOne));
  return { found, drained: end.kind === "limit" ? end.drained : undefined };
};

const logUniform = (random: Random, max: bigint): bigint => {
  if (max <= 1n) return 1n;
  const digits = max.toString().length;
  const value = (BigInt(`1${"0".repeat(random.int(0, digits - 1))}`) * BigInt(random.int(1, 9999))) / 1000n;
  return value < 1n ? 1n : value > max ? max : value;
};

describe("off-chain quotes equal the official quoters at the same block", () => {
  it("matches QuoterV2, V4Quoter and Router02 wei for wei on every case", async () => {
    const { manifest, publicClient } = devnet;
    const blockNumber = await publicClient.getBlockNumber();
    const options = { blockNumber, v4PoolManager: manifest.contracts.v4PoolManager };
    const pools = manifest.pools.filter((p) => p.routable);
    const loaded = await loadPoolStates(publicClient, pools as never, options);
    const window = new Map<ManifestPool, PoolSnapshot>();
    loaded.pools.forEach((load, i) => {
      if (load.status !== "loaded") throw new Error(`pool ${i} did not load: ${load.reason}`);
      window.set(pools[i]!, load.snapshot);
    });
    const full = new Map<ManifestPool, Promise<Concentrated>>();
    const fullState = (pool: ManifestPool, s: Concentrated) => {
      let promise = full.get(pool);
      if (!promise) {
        const missing = { kind: "bitmapWord", wordPos: s.bitmap.from } as const;
        promise = extendPoolStates(publicClient, [{ snapshot: s, missing }], {
          ...options,
          windowTicks: 1 << 21,
        }).then(({ pools: [load] }) => {
          if (load?.status !== "loaded" || load.snapshot.kind === "v2") throw new Error("extension failed");
          return load.snapshot;
        });
        full.set(pool, promise);
      }
      return promise;
    };

    // Draw the cases round-robin over pools, alternating direction each round, so every pool is quoted
    // both ways.
    const random = createRandom(SEED);
    const cases: Case[] = [];
    for (const kind of ["v2", "v3", "v4"] as const) {
      const ofKind = pools.filter((p) => p.kind === kind);
      for (let i = 0; i < CASES[kind]; i++) {
        const pool = ofKind[i % ofKind.length]!;
        const zeroForOne = Math.floor(i / ofKind.length) % 2 === 0;
        cases.push({ pool, zeroForOne, ...(await drawAmount(pool, zeroForOne, random)) });
      }
    }

    async function drawAmount(pool: ManifestPool, zeroForOne: boolean, r: Random) {
      const s = window.get(pool)!;
      if (s.kind === "v2") {
        const reserveIn = zeroForOne ? s.reserve0 : s.reserve1;
        const roll = r.next();
        if (roll < 0.2) return { amount: BigInt(r.int(1, 1_000_000)), regime: "dust" };
        return { amount: logUniform(r, reserveIn * 10n), regime: roll < 0.9 ? "typical" : "huge" };
      }
      const local = edges(s, zeroForOne).found;
      const last = local[local.length - 1] ?? 1n;
      const roll = r.next();
      if (roll < 0.12) return { amount: BigInt(r.int(1, 10 ** r.int(0, 6))), regime: "dust" };
      if (roll < 0.45) return { amount: logUniform(r, last), regime: "window" };
      if (roll < 0.65) {
        const edge = local[r.int(0, local.length - 1)] ?? 1n;
        return { amount: edge + BigInt(r.int(-1, 1)) || 1n, regime: "edge" };
      }
      if (roll < 0.85) {
        const amount = last * BigInt(r.int(2, 1000));
        return { amount: s.kind === "v4" && amount > MAX_V4_IN ? MAX_V4_IN : amount, regime: "beyond" };
      }
      const { drained } = edges(await fullState(pool, s), zeroForOne);
      const around = drained! + BigInt(r.int(-2, 2)) * (r.next() < 0.5 ? 1n : drained! / 1000n);
      const amount = r.next() < 0.3 ? around : drained! * BigInt(r.int(1, 5)) + BigInt(r.int(0, 9));
      if (s.kind === "v4" && amount > MAX_V4_IN)
        return { amount: logUniform(r, last * 100n), regime: "beyond" };
      return { amount: amount > 0n ? amount : 1n, regime: "drain" };
    }

    const tallies = new Map<string, Tally>();
    const tally = (kind: string) => {
      const t = tallies.get(kind) ?? { cases: 0, crossed: 0, limit: 0, extended: 0, regimes: new Map() };
      tallies.set(kind, t);
      return t;
    };
    const ours = new Map<Case, ExactInResult>();
    const usedFull = new Map<Case, boolean>();

    async function check(c: Case): Promise<void> {
      const s = window.get(c.pool)!;
      const t = tally(c.pool.kind);
      t.cases += 1;
      t.regimes.set(c.regime, (t.regimes.get(c.regime) ?? 0) + 1);
      if (s.kind === "v2" && c.pool.kind === "v2") {
        const path = c.zeroForOne ? [c.pool.token0, c.pool.token1] : [c.pool.token1, c.pool.token0];
        const [, expected] = await publicClient.readContract({
          address: manifest.contracts.v2Router02,
          abi: uniswapV2Router02Abi,
          functionName: "getAmountsOut",
          args: [c.amount, path],
          blockNumber,
        });
        expect(quoteV2ExactIn(s, c.zeroForOne, c.amount), `${c.regime} V2 ${c.amount}`).toBe(expected);
        return;
      }
      if (s.kind === "v2") throw new Error("pool kinds disagree");
      let result = quote(s, c.zeroForOne, c.amount);
      let snapshot = s;
      if (result.status === "incomplete") {
        t.extended += 1;
        snapshot = await fullState(c.pool, s);
        result = quote(snapshot, c.zeroForOne, c.amount);
      }
      if (result.status === "incomplete") throw new Error("a fully loaded pool asked for more state");
      ours.set(c, result);
      usedFull.set(c, snapshot !== s);
      if (result.ticksCrossed > 0) t.crossed += 1;
      if (result.status === "priceLimit") t.limit += 1;
      const label = `${c.regime} ${c.pool.kind} ${c.pool.symbols.join("/")} fee ${c.pool.fee} ${c.zeroForOne ? "0->1" : "1->0"} ${c.amount}`;
      if (c.pool.kind === "v3") {
        const call = publicClient.simulateContract({
          address: manifest.contracts.v3QuoterV2,
          abi: quoterV2Abi,
          functionName: "quoteExactInputSingle",
          args: [
            {
              tokenIn: c.zeroForOne ? c.pool.token0 : c.pool.token1,
              tokenOut: c.zeroForOne ? c.pool.token1 : c.pool.token0,
              amountIn: c.amount,
              fee: c.pool.fee,
              sqrtPriceLimitX96: 0n,
            },
          ],
          // Draining a spacing-1 pool walks thousands of bitmap words on chain too: more than the default gas.
          gas: 1_000_000_000n,
          blockNumber,
        });
        if (result.amountIn === 0n) {
          await expect(call, label).rejects.toThrow();
          return;
        }
        const {
          result: [amountOut, sqrtPriceX96After],
        } = await call;
        expect(result.amountOut, label).toBe(amountOut);
        expect(result.after.sqrtPriceX96, label).toBe(sqrtPriceX96After);
      } else if (c.pool.kind === "v4") {
        const call = publicClient.simulateContract({
          address: manifest.contracts.v4Quoter,
          abi: v4QuoterAbi,
          functionName: "quoteExactInputSingle",
          args: [{ poolKey: c.pool.key, zeroForOne: c.zeroForOne, exactAmount: c.amount, hookData: "0x" }],
          blockNumber,
        });
        if (result.status === "priceLimit") {
          // V4Quoter refuses partial fills: NotEnoughLiquidity(poolId), wrapped by its revert parsing.
          const error = await call.then(
            () => undefined,
            (e: unknown) => e,
          );
          const reverted =
            error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
          const outer = (reverted as ContractFunctionRevertedError | null)?.data;
          expect(outer?.errorName, label).toBe("UnexpectedRevertBytes");
          const inner = decodeErrorResult({ abi: v4QuoterAbi, data: outer!.args![0] as Hex });
          expect([inner.errorName, inner.args[0]], label).toEqual(["NotEnoughLiquidity", c.pool.poolId]);
          return;
        }
        const {
          result: [amountOut],
        } = await call;
        expect(result.amountOut, label).toBe(amountOut);
      }
    }

    const started = performance.now();
    for (let i = 0; i < cases.length; i += 16) await Promise.all(cases.slice(i, i + 16).map(check));

    // quoteMany over each (pool, direction)'s amounts gives exactly the single quotes.
    const groups = new Map<string, Case[]>();
    for (const c of ours.keys()) {
      const key = `${c.pool.kind === "v4" ? c.pool.poolId : c.pool.address}:${c.zeroForOne}:${usedFull.get(c)}`;
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const s = usedFull.get(first)
        ? await fullState(first.pool, window.get(first.pool) as Concentrated)
        : (window.get(first.pool) as Concentrated);
      const amounts = group.map((c) => c.amount);
      const many =
        s.kind === "v3"
          ? quoteManyV3(s, first.zeroForOne, amounts)
          : quoteManyV4(s, first.zeroForOne, amounts);
      many.forEach((result, i) => {
        expect(result).toEqual(ours.get(group[i]!));
      });
    }

    const summary = [...tallies]
      .map(([kind, t]) => {
        const regimes = [...t.regimes].map(([regime, n]) => `${regime} ${n}`).join(", ");
        const swaps = `, ${t.crossed} crossed ticks, ${t.limit} hit the price limit, ${t.extended} needed a wider window`;
        return `${kind}: ${t.cases} cases (${regimes})${kind === "v2" ? "" : swaps}`;
      })
      .join("; ");
    console.log(
      `differential @ block ${blockNumber}: all wei-exact in ${((performance.now() - started) / 1000).toFixed(1)} s; ${summary}`,
    );
    expect(tally("v3").cases + tally("v4").cases).toBeGreaterThanOrEqual(2000);
    expect(tally("v3").crossed).toBeGreaterThan(100);
    expect(tally("v3").limit + tally("v4").limit).toBeGreaterThan(50);
  });
});
