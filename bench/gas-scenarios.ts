import { type Address, zeroAddress } from "viem";
import type { Edge } from "../src/routing/edge.ts";
import { quotePath } from "../src/routing/path-curve.ts";
import type { Path } from "../src/routing/paths.ts";
import type { ExecutorRoute } from "../src/routing/route-encoding.ts";
import { executorRoute } from "../src/routing/to-executor-route.ts";
import type { RoutingState } from "./routing-state.ts";

/**
 * A swap to execute for the gas calibration. Each branch is written `USDC >v3:500> WETH >v4:3000/60> AAVE`:
 * symbols (`ETH` is native ETH) joined by hops `>kind[:fee[/tickSpacing]]>`. `amount` is a human amount of
 * the input, split over the branches by `shares` (percent); or `ticks` asks for the smallest amount whose
 * single branch crosses exactly that many initialized ticks in all (the devnet's V3/V4 pools hold three
 * nested positions, so one hop crosses at most 2 initialized ticks inside the loaded window; "several" ticks
 * per swap come from 2 ticks on each of several hops).
 */
export type ScenarioSpec = {
  name: string;
  branches: string[];
  shares?: number[];
} & ({ amount: string } | { ticks: number });

/** The shapes the model must price: every pool kind, 1 to 3 hops and branches, ticks, native ETH both ways. */
export const GAS_SCENARIOS: ScenarioSpec[] = [
  { name: "V2", branches: ["USDC >v2> WETH"], amount: "2000" },
  { name: "V2", branches: ["WETH >v2> LINK"], amount: "1" },
  { name: "V3, 0 ticks", branches: ["WETH >v3:500> USDC"], ticks: 0 },
  { name: "V3, 1 tick", branches: ["WETH >v3:500> USDC"], ticks: 1 },
  { name: "V3, 2 ticks", branches: ["WETH >v3:500> USDC"], ticks: 2 },
  { name: "V3, 0 ticks", branches: ["USDC >v3:3000> LINK"], ticks: 0 },
  { name: "V3, 1 tick", branches: ["USDC >v3:3000> LINK"], ticks: 1 },
  { name: "V3, 2 ticks", branches: ["USDC >v3:3000> LINK"], ticks: 2 },
  { name: "V3, 2 ticks", branches: ["USDC >v3:100> USDT"], ticks: 2 },
  { name: "V4, 0 ticks", branches: ["USDC >v4:3000/60> WETH"], ticks: 0 },
  { name: "V4, 1 tick", branches: ["USDC >v4:3000/60> WETH"], ticks: 1 },
  { name: "V4, 2 ticks", branches: ["USDC >v4:3000/60> WETH"], ticks: 2 },
  { name: "V4, 0 ticks", branches: ["DAI >v4:100/1> USDC"], ticks: 0 },
  { name: "V4, 1 tick", branches: ["ETH >v4:3000/60> LINK"], ticks: 1 },
  { name: "V4, 2 ticks", branches: ["USDC >v4:100/1> USDT"], ticks: 2 },
  { name: "2 hops V3+V3, 3 ticks", branches: ["WBTC >v3:500> WETH >v3:500> USDC"], ticks: 3 },
  { name: "2 hops V4+V3, 3 ticks", branches: ["USDC >v4:100/1> USDT >v3:500> WETH"], ticks: 3 },
  { name: "2 hops V3+V4, 3 ticks", branches: ["USDT >v3:500> USDC >v4:100/1> DAI"], ticks: 3 },
  {
    name: "3 hops V2+V3+V4, 3 ticks",
    branches: ["USDC >v2> WETH >v3:3000> LINK >v4:3000/60> ETH"],
    ticks: 3,
  },
  { name: "2 hops V2+V3", branches: ["USDC >v2> WETH >v3:3000> LINK"], amount: "3000" },
  { name: "2 hops V2+V2 (chained pairs)", branches: ["USDC >v2> WETH >v2> UNI"], amount: "3000" },
  { name: "2 hops V3+V4", branches: ["USDC >v3:500> WETH >v4:3000/60> AAVE"], amount: "3000" },
  { name: "2 hops V4+V4 (one unlock)", branches: ["USDC >v4:100/1> USDT >v4:500/10> DAI"], amount: "3000" },
  { name: "2 hops V4+V2", branches: ["WBTC >v4:3000/60> USDT >v2> USDC"], amount: "0.05" },
  { name: "3 hops V2+V3+V4", branches: ["USDC >v2> WETH >v3:3000> LINK >v4:3000/60> ETH"], amount: "3000" },
  { name: "3 hops V3+V3+V2", branches: ["DAI >v3:100> USDC >v3:500> WETH >v2> UNI"], amount: "3000" },
  {
    name: "3 hops V4+V4+V4 (one unlock)",
    branches: ["USDC >v4:100/1> USDT >v4:500/10> DAI >v4:500/10> WBTC"],
    amount: "3000",
  },
  {
    name: "2 branches V2, V3",
    branches: ["USDC >v2> WETH", "USDC >v3:500> WETH"],
    shares: [60, 40],
    amount: "20000",
  },
  {
    name: "2 branches V3, V4",
    branches: ["WETH >v3:3000> USDC", "WETH >v4:3000/60> USDC"],
    shares: [50, 50],
    amount: "5",
  },
  {
    name: "3 branches V2, V3, V4",
    branches: ["USDC >v2> WETH", "USDC >v3:3000> WETH", "USDC >v4:3000/60> WETH"],
    shares: [50, 30, 20],
    amount: "30000",
  },
  {
    name: "2 branches of 2 hops",
    branches: ["LINK >v2> WETH >v3:500> USDC", "LINK >v3:3000> WETH >v2> USDC"],
    shares: [50, 50],
    amount: "200",
  },
  {
    name: "3 branches, 1 to 3 hops",
    branches: ["DAI >v2> USDC", "DAI >v4:100/1> USDC", "DAI >v3:100> USDT >v4:100/1> USDC"],
    shares: [40, 40, 20],
    amount: "50000",
  },
  { name: "ETH in, V4 native", branches: ["ETH >v4:500/10> USDC"], amount: "2" },
  { name: "ETH in, V3 (wrap)", branches: ["ETH >v3:500> USDC"], amount: "2" },
  { name: "ETH in, V2 (wrap)", branches: ["ETH >v2> LINK"], amount: "1" },
  { name: "ETH out, V4 native", branches: ["USDC >v4:3000/60> ETH"], amount: "3000" },
  { name: "ETH out, V3 (unwrap)", branches: ["USDC >v3:3000> ETH"], amount: "3000" },
  { name: "ETH out, V2 (unwrap)", branches: ["LINK >v2> ETH"], amount: "100" },
  {
    name: "ETH in, 2 branches V4, V3",
    branches: ["ETH >v4:3000/60> USDC", "ETH >v3:3000> USDC"],
    shares: [60, 40],
    amount: "5",
  },
  {
    name: "ETH in, V3 then V4 native",
    branches: ["ETH >v3:3000> UNI >v4:3000/60> USDT"],
    amount: "1",
  },
];

/** A scenario made concrete at one block: its paths, exact branch amounts, predicted output and route. */
export type Scenario = {
  name: string;
  label: string;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  branches: { path: Path; amountIn: bigint; ticksCrossed: number[] }[];
  /** The output our swap math predicts for the route at the block (the executor must deliver exactly this). */
  grossOut: bigint;
  route: ExecutorRoute;
};

const HOP = /^>(v2|v3|v4)(?::(\d+)(?:\/(\d+))?)?>$/;
const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();

/** The path a branch string names, from the loaded edges; throws if the devnet has no such pool. */
export function parseBranch(state: RoutingState, text: string): { path: Path; from: string; to: string } {
  const parts = text.trim().split(/\s+/);
  const path: Edge[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const [from, hop, to] = [parts[i - 1]!, parts[i]!, parts[i + 1]];
    const match = HOP.exec(hop);
    if (!match || !to) throw new Error(`bad hop "${hop}" in "${text}"`);
    const [, kind, fee, spacing] = match;
    // V2/V3 pools hold native ETH as WETH; a V4 pool names the currency its key holds.
    const side = (symbol: string) => (symbol === "ETH" && kind !== "v4" ? state.weth : state.token(symbol));
    const edge = state.edges.find(
      (e) =>
        e.pool.kind === kind &&
        (fee === undefined || e.pool.fee === Number(fee)) &&
        (spacing === undefined || (e.pool.kind !== "v2" && e.pool.tickSpacing === Number(spacing))) &&
        same(e.tokenIn, side(from)) &&
        same(e.tokenOut, side(to)),
    );
    if (!edge) throw new Error(`no routable pool for ${from} ${hop} ${to}`);
    path.push(edge);
  }
  return { path, from: parts[0]!, to: parts[parts.length - 1]! };
}

/** Resolves a scenario at the state's block: paths, amounts (searched for a tick count if asked), route. */
export function buildScenario(state: RoutingState, spec: ScenarioSpec, amount?: bigint): Scenario {
  const parsed = spec.branches.map((text) => parseBranch(state, text));
  const { from, to } = parsed[0]!;
  const [tokenIn, tokenOut] = [state.token(from), state.token(to)];
  const shares = spec.shares ?? [100];
  if (shares.length !== parsed.length || shares.reduce((a, b) => a + b, 0) !== 100)
    throw new Error(`${spec.name}: shares must be one per branch and add up to 100`);
  const amountIn =
    amount ??
    ("amount" in spec
      ? state.units(from, spec.amount)
      : amountForTicks(parsed[0]!.path, spec.ticks, 10n ** BigInt(state.decimals(from) - 2), spec.name));
  let assigned = 0n;
  const branches = parsed.map(({ path }, i) => {
    const branchIn = i === parsed.length - 1 ? amountIn - assigned : (amountIn * BigInt(shares[i]!)) / 100n;
    assigned += branchIn;
    const point = quotePath(path, branchIn);
    if (!point) throw new Error(`${spec.name}: ${spec.branches[i]} cannot fill ${branchIn}`);
    return { path, amountIn: branchIn, ticksCrossed: point.ticksCrossed, amountOut: point.amountOut };
  });
  const route = executorRoute(branches, tokenIn, tokenOut, state.weth);
  if (!route) throw new Error(`${spec.name}: the executor cannot run this route`);
  return {
    name: spec.name,
    label: spec.branches.join(" | "),
    tokenIn,
    tokenOut,
    amountIn,
    branches: branches.map(({ path, amountIn, ticksCrossed }) => ({ path, amountIn, ticksCrossed })),
    grossOut: branches.reduce((sum, b) => sum + b.amountOut, 0n),
    route,
  };
}

/** Renard R20 steps ×100: a ladder of amounts ~12% apart. */
const LADDER = [
  100n,
  112n,
  125n,
  140n,
  160n,
  180n,
  200n,
  224n,
  250n,
  280n,
  315n,
  355n,
  400n,
  450n,
  500n,
  560n,
  630n,
  710n,
  800n,
  900n,
];

/**
 * The smallest amount of at least `floor` (0.01 of the input token), on a ladder ~12% apart, at which the
 * path crosses exactly `ticks` initialized ticks.
 */
function amountForTicks(path: Path, ticks: number, floor: bigint, name: string): bigint {
  for (let exponent = 0n; exponent < 30n; exponent++) {
    for (const mantissa of LADDER) {
      const amount = (mantissa * 10n ** exponent) / 100n;
      if (amount < floor) continue;
      const point = quotePath(path, amount);
      if (!point) continue;
      const crossed = point.ticksCrossed.reduce((a, b) => a + b, 0);
      if (crossed === ticks) return amount;
    }
  }
  throw new Error(`${name}: no amount crosses ${ticks} ticks within the loaded window`);
}

/** Wraps and unwraps the executor performs for a route (its `RouteRunner` rules, replayed). */
export function conversions(route: ExecutorRoute, tokenIn: Address): { wraps: number; unwraps: number } {
  let wraps = 0;
  let unwraps = 0;
  for (const branch of route.branches) {
    let currency = tokenIn;
    let wrapped = false;
    let atPair = false;
    branch.hops.forEach((hop, i) => {
      if (hop.kind === "v4") {
        const runStart = i === 0 || branch.hops[i - 1]!.kind !== "v4";
        if (runStart && currency === zeroAddress && wrapped) unwraps++;
        wrapped = false;
        atPair = false;
      } else {
        if (currency === zeroAddress && !wrapped && !atPair) wraps++;
        atPair = hop.kind === "v2" && branch.hops[i + 1]?.kind === "v2";
        wrapped = hop.currencyOut === zeroAddress;
      }
      currency = hop.currencyOut;
    });
    if (currency === zeroAddress && wrapped) unwraps++;
  }
  return { wraps, unwraps };
}
