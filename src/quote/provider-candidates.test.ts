import { describe, expect, it } from "vitest";
import type { QuoteProvider } from "../providers/provider.ts";
import { QUOTE_LIMITS } from "./limits.ts";
import { providerCandidates, providersAsked } from "./provider-candidates.ts";
import { QuoteError } from "./quote-types.ts";

const stub = (id: "aggregator-a" | "aggregator-b", quote: QuoteProvider["quote"]): QuoteProvider => ({
  id,
  variants: id === "aggregator-a" ? ["default", "direct"] : ["firm"],
  quote,
});
const request = {
  tokenIn: "0x0000000000000000000000000000000000000001",
  tokenOut: "0x0000000000000000000000000000000000000002",
  amountIn: 10n,
} as const;
const tx = { to: "0x0000000000000000000000000000000000000003", data: "0x00", value: 0n } as const;

describe("providersAsked", () => {
  const a = stub("aggregator-a", async () => []);
  const b = stub("aggregator-b", async () => []);

  it("asks every provider without `provider`, none for service, the named one otherwise", () => {
    expect(providersAsked([a, b], undefined).map((x) => x.provider.id)).toEqual([
      "aggregator-a",
      "aggregator-b",
    ]);
    expect(providersAsked([a, b], "service")).toEqual([]);
    expect(providersAsked([a, b], "aggregator-b")).toEqual([{ provider: b }]);
    expect(providersAsked([a, b], "aggregator-a-direct")).toEqual([{ provider: a, variants: ["direct"] }]);
  });

  it("refuses a provider this deployment has not configured: PROVIDER_DISABLED, never a fallback", () => {
    expect(() => providersAsked([a], "aggregator-b")).toThrow(QuoteError);
    expect(() => providersAsked([], "aggregator-a-direct")).toThrow(/not enabled/);
  });
});

describe("providerCandidates", () => {
  it("turns quotes into fee-free candidates and drops failures and a throwing adapter", async () => {
    const outcomes: string[] = [];
    const candidates = await providerCandidates(
      [
        {
          provider: stub("aggregator-a", async () => [
            { provider: "aggregator-a", variant: "default", amountOut: 7n, tx, allowanceTarget: tx.to },
            { provider: "aggregator-a-direct", variant: "direct", reason: "no-route" },
          ]),
        },
        {
          provider: stub("aggregator-b", async () => {
            throw new Error("adapter bug");
          }),
        },
      ],
      request,
      1n,
      new AbortController().signal,
      { onOutcome: (outcome) => outcomes.push(`${outcome.provider}/${outcome.variant}:${outcome.outcome}`) },
    );
    expect(candidates).toEqual([
      expect.objectContaining({
        id: "aggregator-a-default",
        provider: "aggregator-a",
        variant: "default",
        amountOut: 7n,
        serviceFeeBps: 0,
        serviceFee: 0n,
        builderFee: 0n,
        spender: tx.to,
      }),
    ]);
    expect(outcomes.sort()).toEqual([
      "aggregator-a-direct/direct:no-route",
      "aggregator-a/default:quoted",
      "aggregator-b/*:error",
    ]);
  });

  it("asks for the taker and recipient given, and keeps whom each transaction pays", async () => {
    const taker = "0x00000000000000000000000000000000000e4ec0";
    const recipient = "0x000000000000000000000000000000000000beef";
    const asked: { taker: string; recipient?: string }[] = [];
    const candidates = await providerCandidates(
      [
        {
          provider: stub("aggregator-a", async (req) => {
            asked.push({ taker: req.taker, ...(req.recipient ? { recipient: req.recipient } : {}) });
            return [
              {
                provider: "aggregator-a",
                variant: "default",
                amountOut: 7n,
                tx,
                allowanceTarget: tx.to,
                ...(req.recipient ? { recipient: req.recipient } : {}),
              },
            ];
          }),
        },
      ],
      request,
      1n,
      new AbortController().signal,
      { taker, recipient },
    );
    expect(asked).toEqual([{ taker, recipient }]);
    expect(candidates[0]?.providerRecipient).toBe(recipient);
  });

  it("leaves out a provider that ignores its signal once its deadline passes", async () => {
    const outcomes: string[] = [];
    const started = Date.now();
    const candidates = await providerCandidates(
      [{ provider: stub("aggregator-a", () => new Promise(() => {})) }],
      request,
      1n,
      new AbortController().signal,
      { deadlineMs: 100, onOutcome: (outcome) => outcomes.push(`${outcome.variant}:${outcome.outcome}`) },
    );
    expect(candidates).toEqual([]);
    expect(outcomes).toEqual(["default:timeout", "direct:timeout"]);
    // Not a timing assertion: the configured deadline, not the 2.5 s default, ended the wait.
    expect(Date.now() - started).toBeLessThan(QUOTE_LIMITS.providerDeadlineMs);
  });
});
