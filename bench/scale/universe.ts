import { createRandom, type Random } from "../../src/devnet/random.ts";
import { overlappingRanges, type RangeSpec } from "../../src/devnet/universe.ts";

/**
 * A busy chain's token and pool universe as plain data, derived from a pool count and a seed: a twentieth
 * as many tokens as pools (five hubs and a long tail with log-normal prices and 6, 8 or 18 decimals),
 * about 45% V2, 45% V3 and 10% hook-free V4 pools, every tail token paired with a hub and the rest random
 * hub/tail and tail/tail pairs, with log-normal USD depths (median $200k, a few thin $1-5k pools).
 */
export type ScaleToken = {
  symbol: string;
  name: string;
  decimals: number;
  /** USD price times 1e8. */
  priceE8: bigint;
  hub: boolean;
};

type PoolBase = {
  /** Indexes into the universe's tokens (0 is WETH; a V4 pool holds native ETH in its place). */
  a: number;
  b: number;
  /** USD value seeded, both sides together. */
  depthUsd: bigint;
  /** Token b's side nudged by this many bps, so pools of a pair disagree a little. */
  dislocationBps: number;
};
export type ScalePoolSpec =
  | (PoolBase & { kind: "v2" })
  | (PoolBase & { kind: "v3" | "v4"; fee: number; tickSpacing: number; ranges: RangeSpec[] });

export type ScaleUniverse = { pools: number; seed: number; tokens: ScaleToken[]; specs: ScalePoolSpec[] };

const HUBS: ScaleToken[] = [
  { symbol: "WETH", name: "Wrapped Ether", decimals: 18, priceE8: 3_000_00000000n, hub: true },
  { symbol: "USDC", name: "USD Coin", decimals: 6, priceE8: 1_00000000n, hub: true },
  { symbol: "USDT", name: "Tether USD", decimals: 6, priceE8: 1_00000000n, hub: true },
  { symbol: "DAI", name: "Dai Stablecoin", decimals: 18, priceE8: 1_00000000n, hub: true },
  { symbol: "WBTC", name: "Wrapped BTC", decimals: 8, priceE8: 90_000_00000000n, hub: true },
];
/** How often a tail token's own hub pool is against each hub (WETH, USDC, USDT, DAI, WBTC). */
const HUB_WEIGHTS = [0.5, 0.25, 0.1, 0.1, 0.05];
const STABLES = new Set(["USDC", "USDT", "DAI"]);
/** Fee tiers with their tick spacings, and how often each is drawn. */
const TIERS: { fee: number; tickSpacing: number; weight: number }[] = [
  { fee: 500, tickSpacing: 10, weight: 0.2 },
  { fee: 3000, tickSpacing: 60, weight: 0.55 },
  { fee: 10000, tickSpacing: 200, weight: 0.25 },
];

export function buildScaleUniverse(pools: number, seed: number): ScaleUniverse {
  const random = createRandom(seed);
  const tokens = [...HUBS, ...tailTokens(random, Math.max(3, Math.round(pools / 20) - HUBS.length))];
  const specs: ScalePoolSpec[] = [];
  const taken = new Set<string>();
  const add = (a: number, b: number, depthUsd: bigint, kind = drawKind(random)) => {
    const spec = poolSpec(random, tokens, a, b, depthUsd, kind);
    const key = `${spec.kind}:${Math.min(a, b)}-${Math.max(a, b)}:${"fee" in spec ? spec.fee : ""}`;
    if (taken.has(key)) return false;
    taken.add(key);
    specs.push(spec);
    return true;
  };
  // The hubs' own pairs, deep: the backbone that multi-hop routes cross.
  for (let a = 0; a < HUBS.length; a++)
    for (let b = a + 1; b < HUBS.length; b++) {
      add(a, b, logUniform(random, 2_000_000, 50_000_000), "v2");
      add(a, b, logUniform(random, 2_000_000, 50_000_000), "v3");
    }
  for (let t = HUBS.length; t < tokens.length && specs.length < pools; t++)
    while (!add(t, drawHub(random), depth(random)));
  const tails = tokens.length - HUBS.length;
  for (let attempts = 0; specs.length < pools && attempts < pools * 50; attempts++) {
    const a = HUBS.length + Math.floor(random.next() * tails);
    const b = random.next() < 0.4 ? drawHub(random) : HUBS.length + Math.floor(random.next() * tails);
    if (a !== b) add(a, b, depth(random));
  }
  return { pools, seed, tokens, specs };
}

function tailTokens(random: Random, count: number): ScaleToken[] {
  return Array.from({ length: count }, (_, i) => {
    // Log-normal around $0.50, clamped to what pool prices and 18-decimal supplies can hold.
    const usd = Math.min(20_000, Math.max(1e-6, 0.5 * Math.exp(2.5 * normal(random))));
    const roll = random.next();
    const decimals = roll < 0.1 ? 6 : roll < 0.2 ? 8 : 18;
    const id = String(i + 1).padStart(4, "0");
    return {
      symbol: `T${id}`,
      name: `Tail ${id}`,
      decimals,
      priceE8: BigInt(Math.max(1, Math.round(usd * 1e8))),
      hub: false,
    };
  });
}

function poolSpec(
  random: Random,
  tokens: readonly ScaleToken[],
  a: number,
  b: number,
  depthUsd: bigint,
  kind: ScalePoolSpec["kind"],
): ScalePoolSpec {
  const stable = STABLES.has(tokens[a]!.symbol) && STABLES.has(tokens[b]!.symbol);
  const dislocationBps = stable ? random.int(-3, 3) : random.int(-40, 40);
  if (kind === "v2") return { kind, a, b, depthUsd, dislocationBps };
  const tier = stable ? TIERS[0]! : drawTier(random);
  return {
    kind,
    a,
    b,
    depthUsd,
    dislocationBps,
    fee: tier.fee,
    tickSpacing: tier.tickSpacing,
    ranges: overlappingRanges(random, stable ? "stable" : "other", tier.tickSpacing),
  };
}

function drawKind(random: Random): ScalePoolSpec["kind"] {
  const roll = random.next();
  return roll < 0.45 ? "v2" : roll < 0.9 ? "v3" : "v4";
}

function drawTier(random: Random): (typeof TIERS)[number] {
  return TIERS[
    weighted(
      random,
      TIERS.map((tier) => tier.weight),
    )
  ]!;
}

function drawHub(random: Random): number {
  return weighted(random, HUB_WEIGHTS);
}

/** An index drawn with the given probabilities (summing to 1). */
function weighted(random: Random, weights: readonly number[]): number {
  let roll = random.next();
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i]!;
    if (roll < 0) return i;
  }
  return weights.length - 1;
}

/** Log-normal USD depth, median $200k, within $5k-$100M; one pool in sixteen thin ($1-5k). */
function depth(random: Random): bigint {
  if (random.next() < 1 / 16) return BigInt(random.int(1_000, 5_000));
  return BigInt(Math.round(Math.min(100e6, Math.max(5_000, 200_000 * Math.exp(1.3 * normal(random))))));
}

function logUniform(random: Random, min: number, max: number): bigint {
  return BigInt(Math.round(min * (max / min) ** random.next()));
}

/** A standard normal draw (Box-Muller). */
function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

/** Raw amount of a token worth `usd` dollars. */
export function amountForUsd(token: { decimals: number; priceE8: bigint | string }, usd: bigint): bigint {
  return (usd * 10n ** BigInt(token.decimals) * 100_000_000n) / BigInt(token.priceE8);
}
