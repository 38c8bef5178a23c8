import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { createPartnerTestApi, type PartnerTestApi } from "../../test/partner-api.ts";
import { createBaseApp } from "../api/base-app.ts";
import { BUILDER_LIMITS } from "../builders/limits.ts";
import { quoterV2Abi } from "../contracts/abis/QuoterV2.ts";
import { uniswapV2PairAbi } from "../contracts/abis/UniswapV2Pair.ts";
import { uniswapV3PoolAbi } from "../contracts/abis/UniswapV3Pool.ts";
import { QUOTE_SOURCES } from "../providers/quote-sources.ts";
import { createAdmission } from "./admission.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * Price impact on every quoting surface against the devnet (docs/rules.md, price impact rules 1-3): for a
 * trade the search routes through one pool, the reported figure equals the one computed here from that
 * pool's own state and math read on chain at the quote block (V2: getReserves and the pair's getAmountOut
 * formula; V3: slot0 and the official QuoterV2), dust reads 0, and the builder and partner quotes report
 * the public comparison's figure, the builder quote with a warning past its threshold.
 */
let devnet: TestDevnet;
let builders: BuilderTestApi;
let partner: PartnerTestApi;
let builderKey: string;
let publicApp: ReturnType<typeof createBaseApp>;

beforeAll(async () => {
  devnet = await startTestDevnet();
  builders = await createBuilderTestApi(devnet);
  partner = await createPartnerTestApi(devnet);
  const demo = await builders.workspace({ code: devnet.manifest.junction.demoBuilder.code, plan: "growth" });
  builderKey = await builders.key(demo.id, ["quote"]);
  publicApp = createBaseApp({
    contracts: devnet.manifest.contracts,
    providers: () =>
      QUOTE_SOURCES.map((id) => ({ id, kind: "aggregator" as const, enabled: id === "service" })),
    latestBlock: () => devnet.publicClient.getBlockNumber(),
    logError: (error) => {
      throw error;
    },
    quote: builders.deps.quote,
    admission: createAdmission({ perMinute: 10_000 }),
  });
});
afterAll(async () => {
  await builders?.close();
  await partner?.close();
  await devnet?.dispose();
});

const token = (symbol: string) =>
  (symbol === "WETH"
    ? devnet.manifest.contracts.weth9
    : devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address
  ).toLowerCase() as Address;

async function publicQuote(tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<Json> {
  const query = new URLSearchParams({ chainId: "4663", tokenIn, tokenOut, amountIn: amountIn.toString() });
  const response = await publicApp.request(`/api/v2/quote?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** The one hop of a single-pool route (the test's precondition: the search chose one pool). */
function onlyHop(body: Json): Json {
  expect(body.route).toHaveLength(1);
  expect(body.route[0].hops).toHaveLength(1);
  return body.route[0].hops[0];
}

/** (ideal − out) / ideal in bps, rounded half up, with ideal = idealNum / idealDen. */
function impactBps(idealNum: bigint, idealDen: bigint, out: bigint): number {
  const shortfall = (idealNum - out * idealDen) * 10_000n;
  return Number((2n * shortfall + idealNum) / (2n * idealNum));
}

describe("price impact", () => {
  it("equals the V2 pair's exact figure from its reserves at the quote block, and is 0 for dust", async () => {
    const [moon, frog] = [token("MOON"), token("FROG")];
    // Sizes the direct pair wins clearly: from about 2e21 a two-hop route through WETH comes within a few
    // thousandths of a percent of it, and the search may rightly prefer either.
    for (const amountIn of [5n * 10n ** 20n, 10n ** 21n]) {
      const body = await publicQuote(moon, frog, amountIn);
      const hop = onlyHop(body);
      expect(hop.kind).toBe("v2");
      const blockNumber = BigInt(body.block.number);
      const [reserve0, reserve1] = await devnet.publicClient.readContract({
        address: hop.pool,
        abi: uniswapV2PairAbi,
        functionName: "getReserves",
        blockNumber,
      });
      const [reserveIn, reserveOut] = moon < frog ? [reserve0, reserve1] : [reserve1, reserve0];
      // The pair's own math (UniswapV2Library.getAmountOut), and its marginal rate 997·rOut / (1000·rIn).
      const out = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
      expect(BigInt(hop.amountOut)).toBe(out);
      const expected = impactBps(amountIn * 997n * reserveOut, 1000n * reserveIn, out);
      expect(expected).toBeGreaterThan(0);
      expect(body.priceImpactBps).toBe(expected);
      expect(body.comparison.find((c: Json) => c.selected).priceImpactBps).toBe(expected);
    }
    const dust = await publicQuote(moon, frog, 10n ** 15n);
    expect(onlyHop(dust).kind).toBe("v2");
    expect(dust.priceImpactBps).toBe(0);
  });

  it("equals the V3 pool's exact figure from slot0 and the official QuoterV2 at the quote block", async () => {
    const [gem, weth] = [token("GEM"), token("WETH")];
    // Amounts the search sends through the one GEM/WETH pool (larger ones split through USDC): under 0.5 bps
    // of impact, so 0 once rounded, while the exact shortfall is positive.
    for (const [tokenIn, tokenOut, amountIn] of [
      [gem, weth, 10n ** 10n],
      [weth, gem, 10n ** 16n],
    ] as const) {
      const body = await publicQuote(tokenIn, tokenOut, amountIn);
      const hop = onlyHop(body);
      expect(hop.kind).toBe("v3");
      const blockNumber = BigInt(body.block.number);
      const [sqrtPriceX96] = await devnet.publicClient.readContract({
        address: hop.pool,
        abi: uniswapV3PoolAbi,
        functionName: "slot0",
        blockNumber,
      });
      const {
        result: [out],
      } = await devnet.publicClient.simulateContract({
        address: devnet.manifest.contracts.v3QuoterV2!,
        abi: quoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [{ tokenIn, tokenOut, amountIn, fee: hop.fee, sqrtPriceLimitX96: 0n }],
        blockNumber,
      });
      expect(BigInt(hop.amountOut)).toBe(out);
      // Marginal rate: the price sqrtP² / 2¹⁹² (token1 per token0), or its inverse, times (1 − fee).
      const price = sqrtPriceX96 * sqrtPriceX96;
      const fee = BigInt(1_000_000 - hop.fee);
      const [num, den] =
        tokenIn < tokenOut
          ? [price * fee, (1n << 192n) * 1_000_000n]
          : [(1n << 192n) * fee, price * 1_000_000n];
      expect(amountIn * num - out * den).toBeGreaterThan(0n);
      expect(body.priceImpactBps).toBe(impactBps(amountIn * num, den, out));
      expect(body.priceImpactBps).toBe(0);
    }
  });

  it("gives every Junction candidate of the comparison its own figure", async () => {
    const body = await publicQuote(token("MOON"), token("FROG"), 10n ** 23n);
    expect(body.comparison.length).toBeGreaterThan(1);
    for (const entry of body.comparison) {
      expect(entry.provider).toBe("service");
      expect(Number.isInteger(entry.priceImpactBps)).toBe(true);
      expect(entry.priceImpactBps).toBeGreaterThanOrEqual(0);
    }
  });

  it("reports the same figure on the builder and partner quotes, the builder quote warning past its threshold", async () => {
    const payer = devnet.wallet(6).account!.address;
    const [moon, frog] = [token("MOON"), token("FROG")];
    for (const amountIn of [10n ** 21n, 4n * 10n ** 24n]) {
      const reference = await publicQuote(moon, frog, amountIn);
      const response = await builders.call("GET", "/api/v2/builders/quote", {
        key: builderKey,
        query: { tokenIn: moon, tokenOut: frog, amountIn: amountIn.toString(), payer },
      });
      expect(response.status).toBe(200);
      const quote = (await response.json()) as Json;
      expect(quote.block.number).toBe(reference.block.number);
      expect(quote.priceImpactBps).toBe(reference.priceImpactBps);
      const warned = quote.warnings.filter((w: string) => w.startsWith("price impact"));
      if (quote.priceImpactBps > BUILDER_LIMITS.priceImpactWarningBps) {
        expect(warned).toHaveLength(1);
        expect(warned[0]).toContain(`${quote.priceImpactBps} bps`);
      } else expect(warned).toEqual([]);

      const partnerResponse = await partner.get("/quote", {
        in: moon,
        out: frog,
        amount: amountIn.toString(),
      });
      const partnerQuote = (await partnerResponse.json()) as Json;
      expect(partnerQuote.block.number).toBe(reference.block.number);
      expect(partnerQuote.priceImpactBps).toBe(reference.priceImpactBps);
    }
    // The large trade is the one past the threshold.
    expect((await publicQuote(moon, frog, 4n * 10n ** 24n)).priceImpactBps).toBeGreaterThan(
      BUILDER_LIMITS.priceImpactWarningBps,
    );
  });
});
