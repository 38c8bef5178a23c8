import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_ID } from "../../chain/chain.ts";
import { createAssetBook } from "../../transfers/assets.ts";
import type { BridgeProvider, BridgeQuoteRequest } from "../../transfers/bridge-provider.ts";
import { estimateTransfer, type TransferEstimator } from "../../transfers/estimate-transfer.ts";
import { createBridgeA } from "../../transfers/providers/bridge-a.ts";
import { createBridgeB } from "../../transfers/providers/bridge-b.ts";
import { startBridgeAStandIn } from "./bridge-a-stand-in.ts";
import { startBridgeBStandIn } from "./bridge-b-stand-in.ts";
import type { StandIn } from "./stand-in-server.ts";

/**
 * The bridge adapters against the devnet stand-ins, real HTTP servers speaking the providers' API shapes:
 * quotes parsed into the common interface, declines mapped to closed reasons, an answer for something not
 * asked rejected, and the estimate's deadline honoured.
 */
const book = createAssetBook({
  weth9: "0x4200000000000000000000000000000000000006",
  stable: "0x0000000000000000000000000000000000000f00",
});
let a: StandIn;
let b: StandIn;
let bridgeA: BridgeProvider;
let bridgeB: BridgeProvider;

const request = (input: string, output: string, amount: bigint): BridgeQuoteRequest => {
  const side = (tag: string) => {
    const [kind, chain] = tag.split(":") as ["ETH" | "STABLE", string];
    return { kind, chainId: Number(chain), token: book.get(Number(chain))![kind]! };
  };
  return { input: side(input), output: side(output), amount };
};
const signal = () => AbortSignal.timeout(3_000);
const fault = (standIn: StandIn, mode: string) =>
  fetch(`${standIn.url}/devnet/fault`, { method: "POST", body: JSON.stringify({ mode, times: 1 }) });

beforeAll(async () => {
  [a, b] = await Promise.all([startBridgeAStandIn(book), startBridgeBStandIn(book)]);
  bridgeA = createBridgeA({ baseUrl: a.url, integrator: "junction", apiKey: "secret-a" });
  bridgeB = createBridgeB({ baseUrl: `${b.url}/`, integrator: "junction" });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe("bridge adapters", () => {
  it("bridge-a: quotes ETH to the stable asset with its fees and the integrator commission", async () => {
    const quote = await bridgeA.quote(request("ETH:1", "STABLE:8453", 10n ** 18n), signal());
    expect(quote).toMatchObject({ status: "quoted", partnerCommissionBps: 10, estimatedSeconds: 180 });
    if (quote.status !== "quoted") throw new Error("not quoted");
    // (1 - 0.0015 - 0.001 - 0.0003) ETH at 3,000.
    expect(quote.outputAmount).toBe(2_991_600_000n);
    expect(quote.fees.map((fee) => fee.name)).toEqual([
      "bridge-fee",
      "partner-commission",
      "relayer-gas-fee",
    ]);
  });

  it("bridge-a: maps the aggregator's failure codes to closed reasons", async () => {
    expect(await bridgeA.quote(request("ETH:1", "STABLE:8453", 10n ** 15n), signal())).toEqual({
      status: "unavailable",
      reason: "amount-below-minimum",
    });
    expect(await bridgeA.quote(request("ETH:1", "STABLE:8453", 301n * 10n ** 18n), signal())).toEqual({
      status: "unavailable",
      reason: "amount-above-maximum",
    });
    const sameChain = await bridgeA.quote(request("ETH:1", "ETH:1", 10n ** 18n), signal());
    expect(sameChain).toEqual({ status: "unavailable", reason: "unsupported-pair" });
  });

  it("bridge-b: quotes one asset between chains, and declines what it does not serve", async () => {
    const quote = await bridgeB.quote(request("STABLE:1", "STABLE:42161", 1_000_000_000n), signal());
    if (quote.status !== "quoted") throw new Error(JSON.stringify(quote));
    // 1,000 - 0.40 LP - 0.30 capital - 0.36 gas.
    expect(quote.outputAmount).toBe(998_940_000n);
    expect(quote.partnerCommissionBps).toBeNull();
    for (const [input, output, reason] of [
      ["ETH:1", "STABLE:8453", "unsupported-pair"],
      ["ETH:10", "ETH:8453", "unsupported-pair"],
    ] as const)
      expect(await bridgeB.quote(request(input, output, 10n ** 18n), signal())).toEqual({
        status: "unavailable",
        reason,
      });
    expect(await bridgeB.quote(request("ETH:1", "ETH:8453", 10n ** 15n), signal())).toEqual({
      status: "unavailable",
      reason: "amount-below-minimum",
    });
    expect(await bridgeB.quote(request("ETH:1", "ETH:8453", 151n * 10n ** 18n), signal())).toEqual({
      status: "unavailable",
      reason: "amount-above-maximum",
    });
  });

  it("turns 5xx, garbage and a blown deadline into the route's reason, never an exception", async () => {
    await fault(a, "5xx");
    expect(await bridgeA.quote(request("ETH:1", "STABLE:8453", 10n ** 18n), signal())).toEqual({
      status: "unavailable",
      reason: "provider-error",
    });
    await fault(b, "malformed");
    expect(await bridgeB.quote(request("ETH:1", "ETH:8453", 10n ** 18n), signal())).toEqual({
      status: "unavailable",
      reason: "provider-malformed",
    });
    await fault(b, "slow");
    const started = Date.now();
    expect(await bridgeB.quote(request("ETH:1", "ETH:8453", 10n ** 18n), AbortSignal.timeout(200))).toEqual({
      status: "unavailable",
      reason: "provider-timeout",
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("rejects an answer for another amount than asked (a provider answering the wrong question)", async () => {
    const lying: BridgeProvider = createBridgeA({ baseUrl: a.url, integrator: "junction" });
    const asked = request("ETH:1", "STABLE:8453", 10n ** 18n);
    const original = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = new URL(String(input));
      url.searchParams.set("fromAmount", "2000000000000000000");
      return original(url, init);
    };
    try {
      expect(await lying.quote(asked, signal())).toEqual({
        status: "unavailable",
        reason: "provider-malformed",
      });
    } finally {
      globalThis.fetch = original;
    }
  });

  it("estimates with every provider asked, the best selected, an unconfigured one listed", async () => {
    const estimator: TransferEstimator = {
      providers: [bridgeB],
      assets: book,
      treasury: async () => "0x00000000000000000000000000000000000000aa",
      now: () => 1_000,
    };
    const estimate = await estimateTransfer(estimator, {
      input: { kind: "ETH", chainId: 1 },
      output: { kind: "ETH", chainId: CHAIN_ID },
      amount: 10n ** 18n,
      delaySeconds: 0,
    });
    expect(estimate).toMatchObject({
      status: "quoted",
      selectedProvider: "bridge-b",
      routeFeeAmount: "0.002",
      providerInputAmount: "0.998",
      expiresAt: 31_000,
    });
    expect(estimate.routes.map((r) => [r.provider, r.reason])).toEqual([
      ["bridge-a", "provider-not-configured"],
      ["bridge-b", null],
    ]);
  });
});
