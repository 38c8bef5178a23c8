import type { z } from "@hono/zod-openapi";
import type { PartnerQuote } from "../../../partners/partner-quote.ts";
import type { PartnerQuoteResponseSchema } from "../../schemas/partner-quote.ts";

type PartnerQuoteResponse = z.infer<typeof PartnerQuoteResponseSchema>;

/** The domain quote as the response: amounts as decimal strings, the trace id first. */
export function toPartnerQuoteResponse(requestId: string, quote: PartnerQuote): PartnerQuoteResponse {
  // The wire's names (docs/glossary.md): `amountOut` is the gross output, the top-level `netOut` it less gas.
  const { block, grossOut: amountOut, gas, gasCostOut, grossLessGas: netOut, swaps } = quote;
  return {
    requestId,
    ok: quote.ok,
    ...(quote.ok ? {} : { error: quote.error }),
    ...(block ? { block: { number: block.number.toString(), hash: block.hash } } : {}),
    tokenIn: quote.tokenIn,
    tokenOut: quote.tokenOut,
    amountIn: quote.amountIn.toString(),
    ...(quote.source === undefined ? {} : { source: quote.source }),
    ...(amountOut === undefined ? {} : { amountOut: amountOut.toString() }),
    ...(gas === undefined ? {} : { gas: gas.toString() }),
    ...(gasCostOut === undefined ? {} : { gasCostOut: gasCostOut.toString() }),
    ...(netOut === undefined ? {} : { netOut: netOut.toString() }),
    ...(quote.priceImpactBps === undefined ? {} : { priceImpactBps: quote.priceImpactBps }),
    ...(quote.ok && quote.tx
      ? {
          tx: {
            to: quote.tx.to,
            data: quote.tx.data,
            value: quote.tx.value.toString(),
            chainId: quote.tx.chainId,
          },
        }
      : {}),
    ...(quote.ok && quote.swap
      ? {
          swap: {
            ...quote.swap,
            amountOut: quote.swap.amountOut.toString(),
            fee: quote.swap.fee.toString(),
            netOut: quote.swap.netOut.toString(),
            minOut: quote.swap.minOut.toString(),
            executorGas: quote.swap.executorGas.toString(),
          },
        }
      : {}),
    ...(swaps
      ? {
          swaps: swaps.map((leg) => ({
            ...leg,
            amountIn: leg.amountIn.toString(),
            amountOut: leg.amountOut.toString(),
          })),
        }
      : {}),
  };
}
