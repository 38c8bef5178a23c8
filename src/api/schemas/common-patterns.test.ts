import { describe, expect, it } from "vitest";
import { BuilderQuoteQuerySchema } from "./builder-quote.ts";
import { Address, Hash32 } from "./common-patterns.ts";
import { PartnerQuoteQuerySchema } from "./partner-quote.ts";
import { QuoteQuerySchema } from "./quote.ts";

const MIXED = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";

describe("the boundary schemas", () => {
  it("accept addresses and hashes in any case and hand the domain one spelling", () => {
    expect(Address.parse(MIXED)).toBe(MIXED.toLowerCase());
    expect(Hash32.parse(`0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(Address.safeParse("0x12").success).toBe(false);
    expect(Address.safeParse(`${MIXED}0`).success).toBe(false);
  });

  it("lowercase the addresses of every quoting surface's query", () => {
    const amount = "1000";
    expect(
      QuoteQuerySchema.parse({ chainId: "4663", tokenIn: MIXED, tokenOut: MIXED, amountIn: amount }),
    ).toMatchObject({ tokenIn: MIXED.toLowerCase(), tokenOut: MIXED.toLowerCase() });
    expect(
      BuilderQuoteQuerySchema.parse({ tokenIn: MIXED, tokenOut: MIXED, amountIn: amount, payer: MIXED }),
    ).toMatchObject({ tokenIn: MIXED.toLowerCase(), payer: MIXED.toLowerCase() });
    expect(PartnerQuoteQuerySchema.parse({ in: MIXED, out: MIXED, amount, recipient: MIXED })).toMatchObject({
      in: MIXED.toLowerCase(),
      recipient: MIXED.toLowerCase(),
    });
  });
});
