import type { Address } from "viem";
import { poolRef } from "../liquidity/pool-index/pool.ts";
import type { Assessment, QuoteRequest } from "./quote-types.ts";

/**
 * One of Junction's own routes that delivered less than its exact quote when run at the quote block. The
 * quote stays true (the candidate fails, docs/rules.md comparison rule 4), but the search's state or its
 * swap math disagreed with the node: worth an operator's look, with what to look at.
 */
export type RouteShortfall = {
  tokenIn: Address;
  tokenOut: Address;
  amountIn: string;
  block: string;
  quoted: string;
  /** What the run delivered, when the node said (the executor's `InsufficientOutput`). */
  delivered: string | null;
  /** Each branch as `amountIn: kind pool -> kind pool`, in execution order. */
  branches: string[];
};

/** The shortfalls among a quote's assessments: its own routes that failed on their output. */
export function routeShortfalls(
  request: QuoteRequest,
  blockNumber: bigint,
  assessments: readonly Assessment[],
): RouteShortfall[] {
  return assessments.flatMap((assessment) => {
    const { simulation } = assessment;
    if (assessment.provider !== "service" || simulation.status !== "failed") return [];
    if (simulation.reason !== "insufficient-output") return [];
    const delivered = "delivered" in simulation ? simulation.delivered : undefined;
    return [
      {
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        amountIn: request.amountIn.toString(),
        block: blockNumber.toString(),
        quoted: assessment.amountOut.toString(),
        delivered: delivered === undefined ? null : delivered.toString(),
        branches: assessment.branches.map(
          (branch) =>
            `${branch.amountIn}: ${branch.hops.map((hop) => `${hop.pool.kind} ${poolRef(hop.pool)}`).join(" -> ")}`,
        ),
      },
    ];
  });
}
