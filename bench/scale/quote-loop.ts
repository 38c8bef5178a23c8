import type { Random } from "../../src/devnet/random.ts";
import { roundTrips } from "../rpc-recorder.ts";
import type { RequestTimeline } from "./request-timeline.ts";
import type { ScaleManifest, ScaleTokenDeployed } from "./scale-manifest.ts";
import { amountForUsd } from "./universe.ts";

export type QuoteSample = {
  pair: string;
  /** When the request was sent (performance.now ms), and how long the answer took. */
  startedAt: number;
  ms: number;
  status: number;
  /** The error code and message of a failed quote, when it carried them. */
  code?: string;
  message?: string;
  /** The service's own count of the quote's round trips to the node (its `Server-Timing` header), if given. */
  roundTrips?: number;
  /** The method that opened each of those round trips, when there was more than one (the same header). */
  openers?: string;
  /** Candidates of an answered quote that were not simulated: `description (status, reason)`. */
  unsimulated?: string[];
  /** Stage durations in ms from the same header (pin, state, search, simulate, ...). */
  stages: Record<string, number>;
  /** Busy periods at the node while the quote ran, taken on the wire (the head follower's requests count too). */
  wireRoundTrips: number;
  /** HTTP requests to the node that started while the quote ran. */
  requests: number;
};

/** Hub pairs quoted in both directions. */
const HUB_PAIRS: [string, string][] = [
  ["WETH", "USDC"],
  ["WBTC", "USDT"],
  ["DAI", "WETH"],
  ["USDT", "DAI"],
];

/**
 * Public quotes at a steady pace until stopped (sequential, one every `everyMs`), as a trickle of users
 * would ask: 40% between hubs (WETH→USDC and the like), 30% a tail token against WETH, 15% against USDC and
 * 15% between two tail tokens, each worth $100-900. Each records its latency, HTTP status and what it asked
 * of the node, taken from the request timeline.
 */
export function startQuoteLoop(input: {
  baseUrl: string;
  manifest: ScaleManifest;
  timeline: RequestTimeline;
  random: Random;
  everyMs: number;
}): { stop: () => Promise<QuoteSample[]> } {
  const samples: QuoteSample[] = [];
  let stopping = false;
  const loop = (async () => {
    for (let next = performance.now(); !stopping; ) {
      const [tokenIn, tokenOut] = drawPair(input.manifest, input.random);
      const usd = BigInt(input.random.int(100, 900));
      samples.push(await quote(input.baseUrl, input.timeline, tokenIn, tokenOut, amountForUsd(tokenIn, usd)));
      next += input.everyMs;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      return samples;
    },
  };
}

async function quote(
  baseUrl: string,
  timeline: RequestTimeline,
  tokenIn: ScaleTokenDeployed,
  tokenOut: ScaleTokenDeployed,
  amountIn: bigint,
): Promise<QuoteSample> {
  const query = new URLSearchParams({
    chainId: "4663",
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    amountIn: amountIn.toString(),
  });
  const first = timeline.requests.length;
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v2/quote?${query}`);
  const body = await response.text();
  const ended = performance.now();
  const window = timeline.requests.slice(first).filter((request) => request.start <= ended);
  const error = response.ok
    ? undefined
    : (JSON.parse(body) as { error?: { code?: string; message?: string } }).error;
  const unsimulated = response.ok ? unsimulatedCandidates(body) : [];
  return {
    pair: `${tokenIn.symbol}->${tokenOut.symbol}`,
    startedAt: started,
    ms: ended - started,
    status: response.status,
    ...(error?.code ? { code: error.code } : {}),
    ...(error?.message ? { message: error.message } : {}),
    ...(unsimulated.length > 0 ? { unsimulated } : {}),
    ...serverTiming(response.headers.get("server-timing")),
    // A request still in flight when the quote ended counts to the end of the window.
    wireRoundTrips: roundTrips(
      window.map((request) => ({ ...request, end: Number.isNaN(request.end) ? ended : request.end })),
    ).roundTrips,
    requests: window.length,
  };
}

/** The comparison's candidates that were not simulated, each as `description (status, reason)`. */
function unsimulatedCandidates(body: string): string[] {
  type Entry = { description: string; execution: { status: string; reason?: string } };
  const { comparison = [] } = JSON.parse(body) as { comparison?: Entry[] };
  return comparison
    .filter((entry) => entry.execution.status !== "simulated")
    .map(
      (entry) => `${entry.description} (${entry.execution.status}, ${entry.execution.reason ?? "no reason"})`,
    );
}

/** Stage durations and the round-trip count from a quote's `Server-Timing` header (src/api/server-timing.ts). */
function serverTiming(header: string | null): {
  stages: Record<string, number>;
  roundTrips?: number;
  openers?: string;
} {
  const stages: Record<string, number> = {};
  let trips: number | undefined;
  let openers: string | undefined;
  for (const metric of (header ?? "").split(",")) {
    const [name, ...params] = metric.trim().split(";");
    const duration = params.find((param) => param.startsWith("dur="));
    if (name && duration) stages[name] = Number(duration.slice(4));
    const description = params.find((param) => param.startsWith("desc="));
    if (name === "rpc-round-trips" && description) trips = Number(description.slice(5).replaceAll('"', ""));
    if (name === "rpc-round-trip-openers" && description) openers = description.slice(5).replaceAll('"', "");
  }
  return { stages, ...(trips !== undefined ? { roundTrips: trips } : {}), ...(openers ? { openers } : {}) };
}

/** One quote's pair from the mix `startQuoteLoop` asks (also the search bench's, search-scale.ts). */
export function drawPair(manifest: ScaleManifest, random: Random): [ScaleTokenDeployed, ScaleTokenDeployed] {
  const bySymbol = (symbol: string) => manifest.tokens.find((token) => token.symbol === symbol)!;
  const tails = manifest.tokens.filter((token) => !token.hub);
  const tail = () => tails[Math.floor(random.next() * tails.length)]!;
  const roll = random.next();
  const flip = <T>(pair: [T, T]): [T, T] => (random.next() < 0.5 ? pair : [pair[1], pair[0]]);
  if (roll < 0.4) {
    const [a, b] = HUB_PAIRS[Math.floor(random.next() * HUB_PAIRS.length)]!;
    return flip([bySymbol(a), bySymbol(b)]);
  }
  if (roll < 0.7) return flip([tail(), bySymbol("WETH")]);
  if (roll < 0.85) return flip([tail(), bySymbol("USDC")]);
  const a = tail();
  let b = tail();
  while (b === a && tails.length > 1) b = tail();
  return [a, b];
}
