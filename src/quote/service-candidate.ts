import type { Address } from "viem";
import { buildExecutorSwap } from "../routing/executor-calldata.ts";
import type { Path } from "../routing/paths.ts";
import { priceImpactBps } from "../routing/price-impact.ts";
import type { searchRoutes } from "../routing/split-search.ts";
import { executorRoute } from "../routing/to-executor-route.ts";
import { SYNTHETIC_CALLER } from "../simulation/synthetic-caller.ts";
import { type CalldataTerms, candidateTerms } from "./execution-terms.ts";
import { SIMULATION_DEADLINE_S } from "./limits.ts";
import type { Candidate, FeeTerms, QuotedHop, QuoteRequest } from "./quote-types.ts";

/**
 * One route of Junction's own search as a candidate: its complete executor calldata, sent by the synthetic
 * caller with the quote's fee terms, or nothing when the executor could not run it. It pays the request's
 * recipient with the request's minimum and deadline when the request carries them (execution-terms.ts),
 * else the synthetic caller with the quote itself as the minimum; either way a candidate delivering less
 * than it promised fails, never passes (assess-candidate.ts).
 */
export function serviceCandidate(
  request: QuoteRequest,
  route: ReturnType<typeof searchRoutes>[number],
  order: number,
  terms: { fees: FeeTerms; timestamp: bigint; executor: Address; weth: Address },
): Candidate | undefined {
  const { fees, executor } = terms;
  const encoded = executorRoute(route.branches, request.tokenIn, request.tokenOut, terms.weth);
  if (!encoded) return undefined;
  // Each fee rounds down on its own, exactly as the executor's FeeMath does.
  const serviceFee = (route.amountOut * BigInt(fees.serviceFeeBps)) / 10_000n;
  const builderFee = (route.amountOut * BigInt(fees.builderBps)) / 10_000n;
  const amountOut = route.amountOut - serviceFee - builderFee;
  const built: CalldataTerms = request.execution
    ? candidateTerms(request.execution, amountOut, terms, undefined)
    : { recipient: SYNTHETIC_CALLER, minOut: amountOut, deadline: terms.timestamp + SIMULATION_DEADLINE_S };
  const tx = buildExecutorSwap({
    executor,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn,
    minOut: built.minOut,
    recipient: built.recipient,
    deadline: built.deadline,
    maxRouteFeeBps: fees.serviceFeeBps,
    pairFee: fees.pairFee,
    maxBuilderFeeBps: fees.builderBps,
    ...(request.builder ? { builderId: request.builder.id } : {}),
    ...(built.attribution ?? {}),
    route: encoded,
  });
  const hopCount = route.branches.reduce((sum, branch) => sum + branch.path.length, 0);
  return {
    id: `service-${order + 1}`,
    provider: "service",
    amountOut,
    grossAmountOut: route.amountOut,
    serviceFeeBps: fees.serviceFeeBps,
    serviceFee,
    builderFee,
    description: `${route.branches.length} branch${route.branches.length > 1 ? "es" : ""}, ${hopCount} hop${hopCount > 1 ? "s" : ""}`,
    branches: route.branches.map((branch) => ({
      amountIn: branch.amountIn,
      amountOut: branch.amountOut,
      hops: quotedHops(branch.path, branch.amountIn),
    })),
    priceImpactBps: priceImpactBps(route.branches),
    executorRoute: encoded,
    terms: built,
    tx: { to: tx.to, data: tx.data, value: tx.value },
    spender: executor,
  };
}

/** Each hop's amounts along a path, for display (the same exact math that produced the quote). */
function quotedHops(path: Path, amountIn: bigint): QuotedHop[] {
  const hops: QuotedHop[] = [];
  let amount = amountIn;
  for (const edge of path) {
    const quoted = edge.quote(amount);
    const amountOut = quoted.ok ? quoted.amountOut : 0n;
    hops.push({
      pool: edge.pool,
      tokenIn: edge.tokenIn,
      tokenOut: edge.tokenOut,
      amountIn: amount,
      amountOut,
    });
    amount = amountOut;
  }
  return hops;
}
