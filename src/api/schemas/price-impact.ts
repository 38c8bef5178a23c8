import { z } from "@hono/zod-openapi";

/**
 * A route's price impact (docs/rules.md, price impact rules 1-3), shared by the public comparison, the
 * builder quote and the partner quote.
 */
export const PriceImpactBps = z.number().int().nullable().openapi({
  description:
    "How far the route's exact output falls short of what the same route would return at its marginal price at the quote block, in bps rounded half up: 1 − output ÷ Σ(branch input × product of its hops' marginal rates). Each hop's marginal rate comes from the pool state the search used (V2 reserves; V3/V4 sqrtPriceX96), after the pool's LP fee, so a dust trade reads 0; the service and builder fees are not in it. Not from an external price. null for a third-party aggregator's route, whose pools are not known.",
  example: 12,
});
