import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { aggregatorWiringIssues } from "./aggregator-wiring.ts";

const ROUTER = "0x1111111111111111111111111111111111111111";
const HOLDER = "0x2222222222222222222222222222222222222222";
const REGISTRY = "0x3333333333333333333333333333333333333333";
const executor = { router: ROUTER, allowanceHolder: HOLDER, settlerRegistry: REGISTRY } as const;

describe("aggregatorWiringIssues", () => {
  it("says nothing when the configured aggregators are the executor's, whatever the case", () => {
    expect(
      aggregatorWiringIssues(executor, { router: ROUTER.toUpperCase().replace("0X", "0x") as never }),
    ).toEqual([]);
    expect(aggregatorWiringIssues(executor, {})).toEqual([]);
  });

  it("names each configured contract the executor does not call, and a disabled entry as such", () => {
    const issues = aggregatorWiringIssues(
      { ...executor, allowanceHolder: zeroAddress },
      { router: HOLDER, allowanceHolder: HOLDER, settlerRegistry: REGISTRY },
    );
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/aggregator-a's router 0x2222.* the executor calls 0x1111/);
    expect(issues[1]).toMatch(/allowance holder .* deployed without it/);
  });
});
