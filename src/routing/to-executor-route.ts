import { type Address, maxUint128, zeroAddress } from "viem";
import type { Edge } from "./edge.ts";
import type { Path } from "./paths.ts";
import type { ExecutorHop, ExecutorRoute } from "./route-encoding.ts";

// Both run for every hop of every path the search enumerates: no copy or number parsed when avoidable.
const same = (a: Address, b: Address) => a === b || a.toLowerCase() === b.toLowerCase();
const isEth = (token: Address) => ZERO_ADDRESS.test(token);
const ZERO_ADDRESS = /^0x0{40}$/i;

/**
 * The executor's hops for a path, or `undefined` when the executor could not run it. The search treats
 * native ETH and WETH as one asset; the executor (contracts/ROUTE_ENCODING.md) holds logical ETH either
 * way and converts only where needed, but never turns WETH-the-token into native ETH or back. So:
 * - a V2/V3 hop out of its WETH side is named ETH (address(0)) when the next hop is a native-keyed V4 pool
 *   or the branch must end in native ETH, and WETH otherwise;
 * - a V4 hop takes exactly its key's currency: native ETH only from logical ETH, WETH only from WETH.
 */
export function executorHops(
  path: Path,
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
): ExecutorHop[] | undefined {
  let current = tokenIn;
  const hops: ExecutorHop[] = [];
  for (const [index, edge] of path.entries()) {
    if (!accepts(edge, current, weth)) return undefined;
    const last = index === path.length - 1;
    const next = path[index + 1];
    const currencyOut = outputName(edge, weth, last ? tokenOut : undefined, next);
    if (currencyOut === undefined) return undefined;
    hops.push(hopOf(edge, currencyOut));
    current = currencyOut;
  }
  return same(current, tokenOut) ? hops : undefined;
}

/** The largest input one executor branch can carry (`uint128`). */
const MAX_BRANCH_AMOUNT_IN = maxUint128;

/** An executor route for branches of paths with their exact input amounts, or undefined if any branch can't run. */
export function executorRoute(
  branches: readonly { path: Path; amountIn: bigint }[],
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
): ExecutorRoute | undefined {
  const out: { amountIn: bigint; hops: ExecutorHop[] }[] = [];
  for (const branch of branches) {
    // The executor carries each branch's input as a uint128: a larger branch is not a route it can run.
    if (branch.amountIn > MAX_BRANCH_AMOUNT_IN) return undefined;
    const hops = executorHops(branch.path, tokenIn, tokenOut, weth);
    if (!hops) return undefined;
    out.push({ amountIn: branch.amountIn, hops });
  }
  return { branches: out };
}

/** Whether the edge's pool can take `current` as its input. */
function accepts(edge: Edge, current: Address, weth: Address): boolean {
  if (edge.pool.kind === "v4") return same(edge.tokenIn, current);
  // V2/V3 pools hold WETH: logical ETH is wrapped on the way in.
  return same(edge.tokenIn, current) || (same(edge.tokenIn, weth) && isEth(current));
}

/** The name of the hop's output currency, or undefined when no name lets the next step accept it. */
function outputName(
  edge: Edge,
  weth: Address,
  endsIn: Address | undefined,
  next: Edge | undefined,
): Address | undefined {
  if (edge.pool.kind === "v4" || !same(edge.tokenOut, weth)) return edge.tokenOut;
  const wantsEth = endsIn !== undefined ? isEth(endsIn) : next?.pool.kind === "v4" && isEth(next.tokenIn);
  return wantsEth ? zeroAddress : weth;
}

function hopOf(edge: Edge, currencyOut: Address): ExecutorHop {
  const pool = edge.pool;
  if (pool.kind === "v2") return { kind: "v2", currencyOut };
  if (pool.kind === "v3") return { kind: "v3", currencyOut, fee: pool.fee };
  return { kind: "v4", currencyOut, fee: pool.fee, tickSpacing: pool.tickSpacing };
}
