import { createRandom, type Random } from "./random.ts";

/**
 * The devnet's token and pool universe, as plain data derived from one seed. Deploying it (seed-*.ts) only
 * carries this data out, so the same seed always yields the same chain, and the data's hash identifies the
 * saved state a warm start may reuse.
 */

/** How a token keeps its balances; the awkward kinds exercise simulation's storage-slot detection. */
export type TokenKind =
  | "standard"
  | "fee-on-transfer"
  | "solady-layout"
  | "erc7201-namespaced"
  | "rebasing-shares";

export type TokenSpec = {
  symbol: string;
  name: string;
  decimals: number;
  /** USD price times 1e8: an integer, so amounts derived from it stay integers. */
  priceE8: bigint;
  kind: TokenKind;
  /** Liquidity category: drives which pool kinds and depths a pair gets. */
  tier: "stable" | "major" | "tail";
};

/** Symbol of the wrapped native token (official WETH9); `ETH` denotes native ETH in V4 keys. */
export const WRAPPED = "WETH";
export const NATIVE = "ETH";
/** The reference ETH price (USD × 1e8) of the seeded universe. */
export const ETH_PRICE_E8 = 3_000_00000000n;

export const TOKENS: readonly TokenSpec[] = [
  { symbol: "USDC", name: "USD Coin", decimals: 6, priceE8: 1_00000000n, kind: "standard", tier: "stable" },
  { symbol: "USDT", name: "Tether USD", decimals: 6, priceE8: 1_00000000n, kind: "standard", tier: "stable" },
  {
    symbol: "DAI",
    name: "Dai Stablecoin",
    decimals: 18,
    priceE8: 1_00000000n,
    kind: "standard",
    tier: "stable",
  },
  {
    symbol: "WBTC",
    name: "Wrapped BTC",
    decimals: 8,
    priceE8: 90_000_00000000n,
    kind: "standard",
    tier: "major",
  },
  { symbol: "LINK", name: "Chainlink", decimals: 18, priceE8: 15_00000000n, kind: "standard", tier: "major" },
  { symbol: "UNI", name: "Uniswap", decimals: 18, priceE8: 8_00000000n, kind: "standard", tier: "major" },
  { symbol: "AAVE", name: "Aave", decimals: 18, priceE8: 180_00000000n, kind: "standard", tier: "major" },
  { symbol: "OP", name: "Optimism", decimals: 18, priceE8: 1_80000000n, kind: "standard", tier: "major" },
  { symbol: "FROG", name: "Frog Meme", decimals: 18, priceE8: 1000n, kind: "standard", tier: "tail" },
  { symbol: "MOON", name: "Moon Token", decimals: 18, priceE8: 5000000n, kind: "standard", tier: "tail" },
  { symbol: "GEM", name: "Gem Token", decimals: 8, priceE8: 30000000n, kind: "standard", tier: "tail" },
  { symbol: "TINY", name: "Tiny Cap", decimals: 6, priceE8: 2000000n, kind: "standard", tier: "tail" },
  {
    symbol: "TAX",
    name: "Taxed Token",
    decimals: 18,
    priceE8: 2_00000000n,
    kind: "fee-on-transfer",
    tier: "tail",
  },
  {
    symbol: "SOLA",
    name: "Solady Layout",
    decimals: 18,
    priceE8: 4_00000000n,
    kind: "solady-layout",
    tier: "tail",
  },
  {
    symbol: "NSPC",
    name: "Namespaced Token",
    decimals: 18,
    priceE8: 50000000n,
    kind: "erc7201-namespaced",
    tier: "tail",
  },
  {
    symbol: "rUSD",
    name: "Rebasing USD",
    decimals: 18,
    priceE8: 1_00000000n,
    kind: "rebasing-shares",
    tier: "stable",
  },
];

/** Fee charged by the fee-on-transfer token, in bps. */
export const TRANSFER_FEE_BPS = 100;

/** V3 fee tiers and their tick spacings (100 is enabled by the devnet, as on mainnet). */
export const V3_TICK_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };

type PoolBase = {
  token0: string;
  token1: string;
  /** Total USD value the pool is seeded with (both sides), as an integer. */
  depthUsd: bigint;
  /** Price dislocation against the reference price, in bps (small, so pools disagree a little). */
  dislocationBps: number;
};
export type V2PoolSpec = PoolBase & { kind: "v2" };
export type V3PoolSpec = PoolBase & { kind: "v3"; fee: number; tickSpacing: number; ranges: RangeSpec[] };
export type V4PoolSpec = PoolBase & {
  kind: "v4";
  fee: number;
  tickSpacing: number;
  ranges: RangeSpec[];
  /** `none` pools are routable; the others exist so routing can prove it excludes them. */
  hook: "none" | "swap-hook" | "dynamic-fee";
};
export type PoolSpec = V2PoolSpec | V3PoolSpec | V4PoolSpec;

/** A position's range in ticks relative to the pool's initial tick, and its share (percent) of the pool's value. */
export type RangeSpec = { below: number; above: number; share: number } | { full: true; share: number };

/** The pools one pair has, and how deep each is (USD). */
type PairPools = {
  a: string;
  b: string;
  v2?: bigint;
  v3?: [fee: number, depthUsd: bigint][];
  v4?: [fee: number, tickSpacing: number, depthUsd: bigint][];
  /** Also list V4 pools with native ETH in place of WETH. */
  native?: [fee: number, tickSpacing: number, depthUsd: bigint][];
};

const M = 1_000_000n;
const K = 1_000n;

/** Which pairs exist where, and how deep. Deep and thin pools sit side by side on the core pairs. */
const PAIRS: readonly PairPools[] = [
  {
    a: "WETH",
    b: "USDC",
    v2: 20n * M,
    v3: [
      [500, 60n * M],
      [3000, 15n * M],
      [10000, 80n * K],
    ],
    v4: [[3000, 60, 5n * M]],
    native: [
      [500, 10, 30n * M],
      [3000, 60, 400n * K],
    ],
  },
  {
    a: "WETH",
    b: "USDT",
    v2: 8n * M,
    v3: [
      [500, 25n * M],
      [3000, 4n * M],
    ],
    native: [[500, 10, 6n * M]],
  },
  { a: "WETH", b: "DAI", v2: 5n * M, v3: [[3000, 6n * M]], native: [[3000, 60, 2n * M]] },
  {
    a: "WBTC",
    b: "WETH",
    v2: 6n * M,
    v3: [
      [500, 30n * M],
      [3000, 8n * M],
    ],
    native: [[3000, 60, 4n * M]],
  },
  { a: "WBTC", b: "USDC", v2: 2n * M, v3: [[3000, 12n * M]], v4: [[500, 10, 3n * M]] },
  {
    a: "USDC",
    b: "USDT",
    v2: 10n * M,
    v3: [
      [100, 50n * M],
      [500, 5n * M],
    ],
    v4: [
      [100, 1, 20n * M],
      [10, 1, 300n * K],
    ],
  },
  { a: "USDC", b: "DAI", v2: 6n * M, v3: [[100, 25n * M]], v4: [[100, 1, 4n * M]] },
  { a: "USDT", b: "DAI", v3: [[100, 8n * M]], v4: [[500, 10, 60n * K]] },
  { a: "LINK", b: "WETH", v2: 3n * M, v3: [[3000, 9n * M]], native: [[3000, 60, 2n * M]] },
  { a: "LINK", b: "USDC", v3: [[3000, 3n * M]], v4: [[2500, 50, 900n * K]] },
  { a: "UNI", b: "WETH", v2: 2n * M, v3: [[3000, 6n * M]], native: [[3000, 60, 1n * M]] },
  { a: "UNI", b: "USDC", v3: [[3000, 1n * M]] },
  {
    a: "AAVE",
    b: "WETH",
    v2: 1n * M,
    v3: [
      [3000, 4n * M],
      [10000, 300n * K],
    ],
    v4: [[3000, 60, 500n * K]],
  },
  { a: "OP", b: "WETH", v2: 800n * K, v3: [[3000, 3n * M]], native: [[10000, 200, 500n * K]] },
  { a: "OP", b: "USDC", v3: [[3000, 700n * K]], v4: [[3000, 60, 150n * K]] },
  { a: "FROG", b: "WETH", v2: 400n * K, v3: [[10000, 600n * K]], native: [[10000, 200, 250n * K]] },
  { a: "MOON", b: "WETH", v2: 150n * K, v3: [[10000, 200n * K]] },
  { a: "MOON", b: "USDC", v4: [[10000, 200, 80n * K]] },
  { a: "GEM", b: "USDC", v2: 120n * K, v3: [[10000, 150n * K]], v4: [[3000, 60, 60n * K]] },
  { a: "GEM", b: "WETH", v3: [[3000, 90n * K]] },
  { a: "TINY", b: "USDT", v2: 50n * K, v3: [[10000, 40n * K]] },
  { a: "TINY", b: "WETH", native: [[10000, 200, 30n * K]] },
  // Fee-on-transfer tokens cannot settle V3 mints or V4 deltas exactly; they live in V2 pairs, as in the wild.
  { a: "TAX", b: "WETH", v2: 500n * K },
  { a: "TAX", b: "USDC", v2: 200n * K },
  { a: "SOLA", b: "WETH", v2: 300n * K, v3: [[3000, 700n * K]], native: [[3000, 60, 200n * K]] },
  { a: "SOLA", b: "USDC", v3: [[3000, 250n * K]] },
  { a: "NSPC", b: "WETH", v2: 250n * K, v3: [[3000, 400n * K]], v4: [[3000, 60, 100n * K]] },
  { a: "NSPC", b: "USDC", v2: 100n * K },
  { a: "rUSD", b: "USDC", v2: 2n * M, v3: [[100, 3n * M]], v4: [[100, 1, 1n * M]] },
  { a: "rUSD", b: "WETH", v2: 600n * K, v3: [[3000, 900n * K]] },
  { a: "LINK", b: "UNI", v2: 200n * K, v3: [[3000, 300n * K]] },
  { a: "AAVE", b: "USDC", v3: [[3000, 2n * M]], v4: [[10000, 200, 120n * K]] },
  { a: "WBTC", b: "USDT", v3: [[3000, 3n * M]], v4: [[3000, 60, 700n * K]] },
  { a: "WBTC", b: "DAI", v3: [[3000, 1n * M]], native: [[500, 10, 40n * K]] },
  { a: "LINK", b: "DAI", v2: 300n * K, v3: [[10000, 150n * K]] },
  { a: "UNI", b: "USDT", v3: [[10000, 250n * K]], v4: [[3000, 60, 90n * K]] },
  { a: "AAVE", b: "DAI", v2: 150n * K, v4: [[3000, 20, 200n * K]] },
  { a: "OP", b: "USDT", v2: 90n * K, v3: [[10000, 120n * K]] },
  { a: "FROG", b: "USDC", v3: [[10000, 100n * K]], v4: [[10000, 100, 40n * K]] },
  { a: "MOON", b: "FROG", v2: 40n * K },
  { a: "GEM", b: "USDT", v4: [[500, 10, 20n * K]] },
  { a: "SOLA", b: "USDT", v4: [[3000, 60, 60n * K]] },
  { a: "NSPC", b: "DAI", v3: [[10000, 70n * K]] },
  { a: "rUSD", b: "DAI", v2: 400n * K, v3: [[500, 500n * K]] },
];

/** Pools with a hook or a dynamic fee: liquid, so a router that failed to exclude them would pick them. */
const HOOKED: readonly [
  a: string,
  b: string,
  hook: "swap-hook" | "dynamic-fee",
  fee: number,
  spacing: number,
][] = [
  ["WETH", "USDC", "swap-hook", 500, 10],
  ["WBTC", "WETH", "swap-hook", 3000, 60],
  ["USDC", "USDT", "dynamic-fee", 0x800000, 1],
  ["ETH", "USDC", "dynamic-fee", 0x800000, 10],
];

export type Universe = { seed: number; tokens: readonly TokenSpec[]; pools: PoolSpec[] };

/**
 * Builds the universe for a seed: which pools exist is fixed (so every seed has the same coverage); the seed
 * moves dislocations, depths (±30%) and position ranges.
 */
export function buildUniverse(seed: number): Universe {
  const random = createRandom(seed);
  const pools: PoolSpec[] = [];
  const jitterDepth = (depth: bigint) => (depth * BigInt(random.int(70, 130))) / 100n;
  const dislocation = (tier: "stable" | "other") =>
    tier === "stable" ? random.int(-3, 3) : random.int(-40, 40);

  for (const wanted of PAIRS) {
    const stable = tierOf(wanted.a) === "stable" && tierOf(wanted.b) === "stable" ? "stable" : "other";
    if (wanted.v2)
      pools.push({
        kind: "v2",
        ...pair(wanted.a, wanted.b),
        depthUsd: jitterDepth(wanted.v2),
        dislocationBps: dislocation(stable),
      });
    for (const [fee, depth] of wanted.v3 ?? []) {
      const tickSpacing = V3_TICK_SPACING[fee]!;
      pools.push({
        kind: "v3",
        ...pair(wanted.a, wanted.b),
        fee,
        tickSpacing,
        depthUsd: jitterDepth(depth),
        dislocationBps: dislocation(stable),
        ranges: overlappingRanges(random, stable, tickSpacing),
      });
    }
    const v4 = [
      ...(wanted.v4 ?? []).map((entry) => [wanted.a, wanted.b, ...entry] as const),
      ...(wanted.native ?? []).map(
        (entry) => [swapWrapped(wanted.a), swapWrapped(wanted.b), ...entry] as const,
      ),
    ];
    for (const [a, b, fee, tickSpacing, depth] of v4) {
      pools.push({
        kind: "v4",
        ...pair(a, b),
        fee,
        tickSpacing,
        hook: "none",
        depthUsd: jitterDepth(depth),
        dislocationBps: dislocation(stable),
        ranges: overlappingRanges(random, stable, tickSpacing),
      });
    }
  }
  for (const [a, b, hook, fee, tickSpacing] of HOOKED) {
    const stable = tierOf(a) === "stable" && tierOf(b) === "stable" ? "stable" : "other";
    pools.push({
      kind: "v4",
      ...pair(a, b),
      fee,
      tickSpacing,
      hook,
      depthUsd: 5n * M,
      dislocationBps: dislocation(stable),
      ranges: overlappingRanges(random, stable, tickSpacing),
    });
  }
  return { seed, tokens: TOKENS, pools };
}

const swapWrapped = (symbol: string) => (symbol === WRAPPED ? NATIVE : symbol);

function tierOf(symbol: string): TokenSpec["tier"] | "native" {
  if (symbol === WRAPPED || symbol === NATIVE) return "major";
  const token = TOKENS.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`unknown token ${symbol} in the devnet universe`);
  return token.tier;
}

/** Pools name their tokens by symbol in a fixed (not address) order; seeding sorts by address. */
function pair(a: string, b: string) {
  return { token0: a, token1: b };
}

/**
 * Three overlapping positions: a wide (or full-range) base, a medium band and a narrow band around the
 * price, with random asymmetry, so that realistic swaps cross several initialized ticks.
 */
export function overlappingRanges(random: Random, tier: "stable" | "other", spacing: number): RangeSpec[] {
  const [medium, narrow] = tier === "stable" ? [60, 8] : [2400, 300];
  const width = (ticks: number) => Math.max(spacing, Math.round((ticks * random.int(70, 140)) / 100));
  return [
    random.next() < 0.5
      ? { full: true, share: 30 }
      : { below: width(medium * 8), above: width(medium * 8), share: 30 },
    { below: width(medium), above: width(medium), share: 40 },
    { below: width(narrow), above: width(narrow), share: 30 },
  ];
}

/** USD price of a symbol (times 1e8), including WETH and native ETH. */
export function priceE8(symbol: string): bigint {
  if (symbol === WRAPPED || symbol === NATIVE) return ETH_PRICE_E8;
  const token = TOKENS.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`unknown token ${symbol}`);
  return token.priceE8;
}

export function decimalsOf(symbol: string): number {
  if (symbol === WRAPPED || symbol === NATIVE) return 18;
  const token = TOKENS.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`unknown token ${symbol}`);
  return token.decimals;
}

/** Raw amount of `symbol` worth `usd` dollars. */
export function amountForUsd(symbol: string, usd: bigint): bigint {
  return (usd * 10n ** BigInt(decimalsOf(symbol)) * 100000000n) / priceE8(symbol);
}
