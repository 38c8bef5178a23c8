import type { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";
import { poolRef } from "../../liquidity/pool-index/pool.ts";
import type { Assessment, QuoteResult } from "../../quote/quote-types.ts";
import type { QuoteResponseSchema } from "../schemas/quote.ts";

type QuoteResponse = z.infer<typeof QuoteResponseSchema>;

/**
 * The domain result as the public response: amounts as decimal strings, no calldata anywhere
 * (docs/rules.md, comparison rule 9).
 */
export function toQuoteResponse(result: QuoteResult): QuoteResponse {
  const { request, selected, block, gasPrice } = result;
  return {
    chainId: CHAIN_ID,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn.toString(),
    provider: selected.provider,
    amountOut: selected.amountOut.toString(),
    priceImpactBps: selected.priceImpactBps ?? null,
    fee: {
      bps: selected.serviceFeeBps,
      amount: selected.serviceFee.toString(),
      policyVersion: result.fees.policyVersion,
    },
    block: { number: block.number.toString(), hash: block.hash },
    route: routeBranches(selected),
    execution: { ...execution(selected, gasPrice), block: block.number.toString() },
    comparison: result.comparison.map((candidate) => ({
      id: candidate.id,
      provider: candidate.provider,
      variant: candidate.variant ?? null,
      description: candidate.description,
      feeBps: candidate.serviceFeeBps,
      amountOut: candidate.amountOut.toString(),
      priceImpactBps: candidate.priceImpactBps ?? null,
      execution: execution(candidate, gasPrice),
      selected: candidate.id === selected.id,
    })),
    search: result.search,
    warnings: result.warnings,
  };
}

/** The selected route's branches and hops, amounts as decimal strings. */
export function routeBranches(selected: Assessment) {
  return selected.branches.map((branch) => ({
    amountIn: branch.amountIn.toString(),
    amountOut: branch.amountOut.toString(),
    hops: branch.hops.map((hop) => ({
      kind: hop.pool.kind,
      pool: poolRef(hop.pool),
      tokenIn: hop.tokenIn.toLowerCase(),
      tokenOut: hop.tokenOut.toLowerCase(),
      fee: hop.pool.fee,
      ...(hop.pool.kind === "v2" ? {} : { tickSpacing: hop.pool.tickSpacing }),
      amountIn: hop.amountIn.toString(),
      amountOut: hop.amountOut.toString(),
    })),
  }));
}

function execution(candidate: Assessment, gasPrice: bigint) {
  const { simulation } = candidate;
  if (simulation.status === "simulated") {
    return {
      status: "simulated" as const,
      amountOut: simulation.amountOut.toString(),
      gasPrice: gasPrice.toString(),
      gas: simulation.gas.toString(),
      gasCostOut: candidate.gasCostOut === null ? null : candidate.gasCostOut.toString(),
    };
  }
  return {
    status: simulation.status,
    amountOut: null,
    gasPrice: gasPrice.toString(),
    gas: null,
    gasCostOut: null,
    reason: simulation.reason,
    stage: simulation.stage,
    ...("transferFee" in simulation ? { transferFee: simulation.transferFee } : {}),
  };
}
