import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { buildExecutableQuote, type ExecutableQuoteDeps } from "./executable-quote.ts";
import type { QuoteResult } from "./quote-types.ts";

const EXECUTOR: Address = "0x00000000000000000000000000000000000e4ec0";
const RECIPIENT: Address = "0x000000000000000000000000000000000000beef";
const SOMEONE_ELSE: Address = "0x0000000000000000000000000000000000005e1f";
const terms = { recipient: RECIPIENT, minOut: 1n, deadline: 2_000_000_000n };

/** A third-party winner whose provider calldata pays `pays`, not built with these terms. */
function aggregatorWinner(pays: Address): QuoteResult {
  return {
    request: {
      tokenIn: "0x000000000000000000000000000000000000000a",
      tokenOut: "0x000000000000000000000000000000000000000b",
      amountIn: 10n ** 18n,
    },
    block: { number: 5n, hash: `0x${"00".repeat(32)}` as Hex, timestamp: 1_000n },
    gasPrice: 1n,
    fees: { serviceFeeBps: 0, builderBps: 0, builder: null },
    selected: { aggregatorCall: { entry: "router", data: "0x12345678", pays } },
  } as unknown as QuoteResult;
}

/** Dependencies that record whether the run was attempted; the fixture stops it before any node call. */
function deps(): ExecutableQuoteDeps & { fixturesAsked: number } {
  const state = { fixturesAsked: 0 };
  const fixtures = Object.assign(
    async () => {
      state.fixturesAsked += 1;
      return { status: "unsupported" as const, reason: "balance-slot-not-found" as const };
    },
    { learn: async () => "supported" as const, knownBalanceSlot: () => undefined },
  );
  return Object.assign(state, {
    client: {
      call: () => {
        throw new Error("no node call expected");
      },
    },
    contracts: { executor: EXECUTOR },
    fixtures,
  }) as unknown as ExecutableQuoteDeps & { fixturesAsked: number };
}

describe("buildExecutableQuote: a third-party winner's calldata pays one account", () => {
  it("refuses to build for another recipient than the one the provider's calldata pays", async () => {
    const d = deps();
    expect(await buildExecutableQuote(d, aggregatorWinner(SOMEONE_ELSE), terms)).toEqual({
      ok: false,
      reason: "no-executor-route",
    });
    expect(d.fixturesAsked).toBe(0);
  });

  it("builds it when the calldata pays the executor, or this very recipient", async () => {
    for (const pays of [EXECUTOR, RECIPIENT]) {
      const d = deps();
      const built = await buildExecutableQuote(d, aggregatorWinner(pays), terms);
      expect(built).toMatchObject({ ok: false, reason: "unsupported-token-layout", tx: { to: EXECUTOR } });
      expect(d.fixturesAsked).toBe(1);
    }
  });
});
