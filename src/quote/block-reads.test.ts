import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { sameFeeTerms } from "./block-reads.ts";
import type { FeeTerms } from "./quote-types.ts";

const terms: FeeTerms = {
  serviceFeeBps: 5,
  builderBps: 10,
  builderRecipient: zeroAddress,
  policyVersion: 3,
  pairFee: true,
  builder: { registered: true, enabled: true, defaultFeeBps: 10, maxFeeBps: 50 },
};

describe("sameFeeTerms", () => {
  it("holds guessed terms to the terms read field by field: any difference rebuilds the calldata", () => {
    expect(sameFeeTerms(terms, { ...terms })).toBe(true);
    expect(
      sameFeeTerms(terms, { ...terms, builderRecipient: zeroAddress.toUpperCase() as typeof zeroAddress }),
    ).toBe(true);
    for (const changed of [
      { serviceFeeBps: 25 },
      { builderBps: 0 },
      { builderRecipient: "0x0000000000000000000000000000000000000001" as const },
      { policyVersion: 4 },
      // The calldata's flag that the pair has a fee of its own (a read order for the executor).
      { pairFee: false },
      { builder: { registered: false } as const },
    ])
      expect(sameFeeTerms(terms, { ...terms, ...changed }), JSON.stringify(changed)).toBe(false);
  });
});
