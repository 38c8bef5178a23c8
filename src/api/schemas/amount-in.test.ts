import { describe, expect, it } from "vitest";
import { swapParams } from "../../routing/executor-calldata.ts";
import { AMOUNT_IN, amountInIssue } from "../../routing/limits.ts";
import { IntegrationBodySchema } from "./builder-integration.ts";
import { BuilderQuoteQuerySchema } from "./builder-quote.ts";
import { PartnerQuoteQuerySchema } from "./partner-quote.ts";
import { QuoteQuerySchema } from "./quote.ts";

const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";

/**
 * Every place an exact input is checked takes one range, AMOUNT_IN (routing/limits.ts): the amount of each
 * surface's schema (a 400 naming that surface's own field) and the executor's terms. Each is asked at and
 * around both bounds and at the pools' and the route codec's own limits, which are not the request's range.
 */
const PROBES = [
  0n,
  AMOUNT_IN.min,
  AMOUNT_IN.min + 1n,
  2n ** 127n,
  2n ** 128n,
  2n ** 255n,
  AMOUNT_IN.max - 1n,
  AMOUNT_IN.max,
  AMOUNT_IN.max + 1n,
  10n ** 80n,
];

/** Each surface: whether it accepts `amount`, and the issue path it names when it does not. */
const SURFACES: Record<string, { path: string; accepts: (amount: string) => string | true }> = {
  "GET /api/v2/quote": {
    path: "amountIn",
    accepts: (amountIn) =>
      issuePath(QuoteQuerySchema.safeParse({ chainId: "4663", tokenIn: A, tokenOut: B, amountIn })),
  },
  "GET /api/v2/builders/quote": {
    path: "amountIn",
    accepts: (amountIn) =>
      issuePath(BuilderQuoteQuerySchema.safeParse({ tokenIn: A, tokenOut: B, amountIn, payer: A })),
  },
  "GET {partner_url}/quote": {
    path: "amount",
    accepts: (amount) => issuePath(PartnerQuoteQuerySchema.safeParse({ in: A, out: B, amount })),
  },
  "POST /api/v2/builders/integration": {
    path: "input.inputs.0.amount",
    accepts: (amount) =>
      issuePath(
        IntegrationBodySchema.safeParse({
          action: "multi-plan",
          input: {
            execution: "sequential",
            payer: A,
            inputs: [{ token: A, amount }],
            outputs: [{ token: B, weightBps: 10_000 }],
          },
        }),
      ),
  },
};

function issuePath(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  if (result.success) return true;
  return result.error!.issues.map((issue) => issue.path.join(".")).join(", ");
}

describe("the exact input's one range", () => {
  it("is 1 to 2^256 - 1", () => {
    expect(AMOUNT_IN).toEqual({ min: 1n, max: 2n ** 256n - 1n });
    expect(amountInIssue(0n)).toBeDefined();
    expect(amountInIssue(1n)).toBeUndefined();
    expect(amountInIssue(2n ** 256n - 1n)).toBeUndefined();
    expect(amountInIssue(2n ** 256n)).toBeDefined();
  });

  for (const [surface, { path, accepts }] of Object.entries(SURFACES))
    it(`${surface} accepts exactly it, naming ${path} otherwise`, () => {
      for (const amount of PROBES) {
        const inRange = amount >= AMOUNT_IN.min && amount <= AMOUNT_IN.max;
        expect(accepts(amount.toString()), `${surface} ${amount}`).toBe(inRange ? true : path);
      }
    });

  it("the executor's terms take exactly it", () => {
    for (const amount of PROBES) {
      const terms = () =>
        swapParams({
          executor: "0x00000000000000000000000000000000000000e0",
          tokenIn: A,
          tokenOut: B,
          amountIn: amount,
          minOut: 0n,
          recipient: B,
          deadline: 1n,
          maxRouteFeeBps: 0,
          maxBuilderFeeBps: 0,
        });
      const inRange = amount >= AMOUNT_IN.min && amount <= AMOUNT_IN.max;
      if (inRange) expect(terms, `${amount}`).not.toThrow();
      else expect(terms, `${amount}`).toThrow(/amountIn must be between 1 and 2\^256 - 1/);
    }
  });
});
