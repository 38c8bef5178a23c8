import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";
import { type Json, KEY_HEADER, PATH, transferEstimates } from "./transfer-estimates.ts";

/**
 * Transfer estimates as a customer meets them, black-box against `junction start` on the devnet with its
 * bridge stand-ins (real HTTP servers speaking the providers' API shapes): every 400, ETH and
 * the stable asset across chain pairs, declined amounts, misbehaving providers, decimal edge cases, and
 * the fee arithmetic checked to the last digit against a calculation written here, apart from the service's.
 * The key gate and the SDK: transfer-keys.test.ts.
 */
let service: SpawnedService;
let manifest: Manifest;

const AMOUNT = /^(0|[1-9][0-9]{0,20})(\.[0-9]{1,18})?$/;

const estimate = transferEstimates(
  () => service,
  () => manifest,
);

const fault = async (provider: "bridge-a" | "bridge-b", mode: string, times = 1) => {
  const url = manifest.demoTransfers!.providers[provider]!;
  const response = await fetch(`${url}/devnet/fault`, {
    method: "POST",
    body: JSON.stringify({ mode, times }),
  });
  expect(response.status).toBe(200);
};

const route = (body: Json, provider: string) => body.routes.find((r: Json) => r.provider === provider);

/** Decimal text in base units, written independently of the service's parser: digit by digit. */
function toUnits(text: string, decimals: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  let units = 0n;
  for (const digit of `${whole}${fraction.padEnd(decimals, "0")}`) units = units * 10n + BigInt(digit);
  return units;
}
function toText(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}
/** ⌈a / b⌉ for non-negative integers: the quotient, plus one when anything remains. */
const ceilDiv = (a: bigint, b: bigint) => a / b + (a % b === 0n ? 0n : 1n);

/** The reserved 20 bps, as docs/api/transfers.md documents it: rounded up to the input asset's base unit. */
function reserved(amount: string, decimals: number) {
  const units = toUnits(amount, decimals);
  const fee = ceilDiv(units * 20n, 10_000n);
  return { fee: toText(fee, decimals), rest: toText(units - fee, decimals), restUnits: units - fee };
}

beforeAll(async () => {
  service = await spawnService();
  manifest = service.manifest();
}, 120_000);
afterAll(() => service?.kill());

describe("transfer estimates: requests", () => {
  it("answers 400 INVALID_REQUEST naming each bad parameter", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:8453" }, "amount"],
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "1", chain: "1" }, ""],
      [{ inputAsset: "BTC:1", outputAsset: "STABLE:8453", amount: "1" }, "inputAsset"],
      [{ inputAsset: "ETH:0", outputAsset: "STABLE:8453", amount: "1" }, "inputAsset"],
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:999", amount: "1" }, "outputAsset"],
      [{ inputAsset: "ETH:1", outputAsset: "ETH:1", amount: "1" }, "outputAsset"],
      [{ amount: "1" }, "outputAsset"],
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "1", delaySeconds: "60" }, "delaySeconds"],
      [
        { inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "1", delaySeconds: "soon" },
        "delaySeconds",
      ],
      [{ inputAsset: "STABLE:1", outputAsset: "ETH:8453", amount: "1.0000001" }, "amount"],
      // Just over the pattern: 22 integer digits, 19 fraction digits; and other shapes it excludes.
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "1000000000000000000000" }, "amount"],
      [{ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "0.1234567890123456789" }, "amount"],
      ...["01", "1.", ".5", "-1", "1e3", " 1", "1,5", ""].map((amount): [Record<string, string>, string] => [
        { inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount },
        "amount",
      ]),
    ];
    for (const [query, path] of cases) {
      const { status, body } = await estimate(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error.code).toBe("INVALID_REQUEST");
      if (path)
        expect(
          body.error.issues.map((i: Json) => i.path),
          JSON.stringify(query),
        ).toContain(path);
    }
  });

  it("takes a bare chain id as ETH on that chain, and an omitted asset as ETH on chain 4663", async () => {
    const { status, body } = await estimate({ inputAsset: "1", amount: "1" });
    expect(status).toBe(200);
    expect([body.inputAsset, body.outputAsset]).toEqual(["ETH:1", "ETH:4663"]);
  });
});

describe("transfer estimates: answers", () => {
  it("answers every field of the resource, with the fee arithmetic exact (ETH:1 -> STABLE:8453)", async () => {
    const { status, body } = await estimate({
      inputAsset: "ETH:1",
      outputAsset: "STABLE:8453",
      amount: "1.5",
    });
    expect(status).toBe(200);
    const { fee, rest, restUnits } = reserved("1.5", 18);
    expect(fee).toBe("0.003");
    // bridge-a's stand-in: 0.15% + 0.10% integrator share (each rounded up to a wei), 0.0003 ETH relayer
    // cost, then 3,000 stable per ETH, rounded down to the stable asset's 6 decimals.
    const net =
      restUnits -
      ceilDiv(restUnits * 15n, 10_000n) -
      ceilDiv(restUnits * 10n, 10_000n) -
      300_000_000_000_000n;
    const out = toText((net * 3000n) / 10n ** 12n, 6);
    expect(out).toBe("4478.8725");
    expect(body).toMatchObject({
      routeFeeBps: 20,
      inputAsset: "ETH:1",
      outputAsset: "STABLE:8453",
      inputAmount: "1.5",
      routeFeeAmount: fee,
      providerInputAmount: rest,
      estimatedOutput: out,
      status: "quoted",
      selectedProvider: "bridge-a",
      liveEnabled: false,
      delaySeconds: 0,
      supportedDelaysSeconds: [0],
      fees: {
        directRouteFeeBps: 20,
        partnerCommissionPolicy: "retained-provider-paid",
        partnerCommissionIncludedInEstimate: true,
        partnerCommissionBps: 10,
        partnerCommissionRateVerified: false,
        collectionEnabled: false,
        treasury: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      },
    });
    expect(body.fees.treasury.toLowerCase()).toBe(manifest.junction.treasury.toLowerCase());
    expect(body.fees.disclosure).toMatch(/not a guaranteed payout/);
    expect(body.expiresAt).toBeGreaterThan(Date.now());
    expect(body.expiresAt).toBeLessThan(Date.now() + 120_000);
    for (const field of ["inputAmount", "routeFeeAmount", "providerInputAmount", "estimatedOutput"])
      expect(body[field]).toMatch(AMOUNT);
    expect(route(body, "bridge-a")).toMatchObject({
      status: "quoted",
      reason: null,
      estimatedOutput: out,
      partnerCommissionBps: 10,
      liveEnabled: false,
      launchBlockers: ["transfer-creation-disabled", "fee-collection-disabled", "launch-evidence-missing"],
    });
    expect(route(body, "bridge-a").providerFees).toEqual([
      { name: "bridge-fee", amount: toText(ceilDiv(restUnits * 15n, 10_000n), 18), asset: "ETH" },
      { name: "partner-commission", amount: toText(ceilDiv(restUnits * 10n, 10_000n), 18), asset: "ETH" },
      { name: "relayer-gas-fee", amount: "0.0003", asset: "ETH" },
    ]);
    // bridge-b moves one asset between chains.
    expect(route(body, "bridge-b")).toMatchObject({
      status: "unavailable",
      reason: "unsupported-pair",
      estimatedOutput: null,
    });
  });

  it("picks the better of two quotes on a same-asset route, and the stable asset back to ETH", async () => {
    const eth = await estimate({ inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: "2" });
    expect(eth.body.status).toBe("quoted");
    const a = route(eth.body, "bridge-a");
    const b = route(eth.body, "bridge-b");
    expect([a.status, b.status]).toEqual(["quoted", "quoted"]);
    // bridge-b's stand-in: 0.04% LP + 0.03% capital (each rounded up) + 0.00012 ETH gas.
    const { restUnits } = reserved("2", 18);
    const bOut =
      restUnits - ceilDiv(restUnits * 4n, 10_000n) - ceilDiv(restUnits * 3n, 10_000n) - 120_000_000_000_000n;
    expect(b.estimatedOutput).toBe(toText(bOut, 18));
    expect(eth.body.selectedProvider).toBe("bridge-b");
    expect(eth.body.estimatedOutput).toBe(b.estimatedOutput);
    expect(eth.body.fees.partnerCommissionBps).toBeNull();

    const back = await estimate({ inputAsset: "STABLE:42161", outputAsset: "ETH:4663", amount: "3000" });
    expect(back.body).toMatchObject({ status: "quoted", routeFeeAmount: "6", providerInputAmount: "2994" });
    const s = toUnits("2994", 6);
    const sNet = s - ceilDiv(s * 15n, 10_000n) - ceilDiv(s * 10n, 10_000n) - 900_000n;
    expect(back.body.estimatedOutput).toBe(toText((sNet * 10n ** 12n) / 3000n, 18));

    const stable = await estimate({ inputAsset: "STABLE:10", outputAsset: "STABLE:8453", amount: "250.5" });
    expect(stable.body.status).toBe("quoted");
    expect(route(stable.body, "bridge-b").reason).toBe("unsupported-pair");
    const local = await estimate({ inputAsset: "STABLE:4663", outputAsset: "STABLE:1", amount: "1000" });
    expect(local.body.selectedProvider).toBe("bridge-b");
  });

  it("declines amounts outside the providers' limits: unavailable with estimatedOutput null", async () => {
    const small = await estimate({ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: "0.001" });
    expect(small.status).toBe(200);
    expect(small.body).toMatchObject({
      status: "unavailable",
      estimatedOutput: null,
      selectedProvider: null,
    });
    expect(small.body.fees.partnerCommissionBps).toBeNull();
    expect(route(small.body, "bridge-a").reason).toBe("amount-below-minimum");

    const large = await estimate({ inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: "200" });
    expect(route(large.body, "bridge-b").reason).toBe("amount-above-maximum");
    expect(large.body.selectedProvider).toBe("bridge-a");

    const zero = await estimate({ inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: "0" });
    expect(zero.body).toMatchObject({
      status: "unavailable",
      inputAmount: "0",
      routeFeeAmount: "0",
      providerInputAmount: "0",
      estimatedOutput: null,
    });
    for (const r of zero.body.routes) expect(r.reason).toBe("amount-below-minimum");
  });

  it("keeps 18 fraction digits and 21 integer digits exact", async () => {
    const fine = "0.123456789012345678";
    const precise = await estimate({ inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: fine });
    const { fee, rest } = reserved(fine, 18);
    expect(precise.body).toMatchObject({ inputAmount: fine, routeFeeAmount: fee, providerInputAmount: rest });
    expect(fee).toBe("0.000246913578024692");

    const huge = "999999999999999999999";
    const big = await estimate({ inputAsset: "ETH:1", outputAsset: "STABLE:8453", amount: huge });
    const expected = reserved(huge, 18);
    expect(big.body).toMatchObject({
      status: "unavailable",
      inputAmount: huge,
      routeFeeAmount: expected.fee,
      providerInputAmount: expected.rest,
      estimatedOutput: null,
    });
    expect(expected.fee).toBe("1999999999999999999.998");
    expect(route(big.body, "bridge-a").reason).toBe("amount-above-maximum");

    const trailing = await estimate({
      inputAsset: "STABLE:1",
      outputAsset: "STABLE:8453",
      amount: "100.100000",
    });
    expect(trailing.body).toMatchObject({
      inputAmount: "100.1",
      routeFeeAmount: "0.2002",
      providerInputAmount: "99.8998",
    });
  });

  it("answers a well-formed 200 when a provider is slow, fails or answers garbage, with that route unavailable", async () => {
    const query = { inputAsset: "ETH:1", outputAsset: "ETH:8453", amount: "1" };
    for (const [mode, reason] of [
      ["slow", "provider-timeout"],
      ["5xx", "provider-error"],
      ["malformed", "provider-malformed"],
      ["decline", "unsupported-pair"],
    ] as const) {
      await fault("bridge-b", mode);
      const { status, body } = await estimate(query);
      expect(status, mode).toBe(200);
      expect(route(body, "bridge-b"), mode).toMatchObject({
        status: "unavailable",
        reason,
        estimatedOutput: null,
      });
      expect(body.selectedProvider, mode).toBe("bridge-a");
    }
    await fault("bridge-a", "5xx", 1);
    await fault("bridge-b", "malformed", 1);
    const none = await estimate(query);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ status: "unavailable", estimatedOutput: null });
    // Faults were one-shot: the next estimate quotes again.
    expect((await estimate(query)).body.status).toBe("quoted");
  });

  it("offers no way to create or fund a transfer, and says so", async () => {
    const capabilities = (await (await fetch(`${service.baseUrl}/api/v2/capabilities`)).json()) as Json;
    expect(capabilities.transferCreation).toBe(false);
    for (const [method, path] of [
      ["POST", PATH],
      ["POST", "/api/transfers/v1/transfers"],
      ["GET", "/api/transfers/v1/transfers"],
    ] as const) {
      const response = await fetch(`${service.baseUrl}${path}`, {
        method,
        headers: { [KEY_HEADER]: manifest.demoTransfers!.keys.estimates },
      });
      expect([404, 405]).toContain(response.status);
    }
    const config = (await (await fetch(`${service.baseUrl}/api/v2/config`)).json()) as Json;
    expect(config.transfers.providers.map((p: Json) => [p.id, p.enabled])).toEqual([
      ["bridge-a", true],
      ["bridge-b", true],
    ]);
    expect(config.transfers.assets).toContain("STABLE:4663");
    const doc = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as Json;
    expect(doc.paths[PATH].get.security).toEqual([{ TransferKey: [] }]);
    expect(doc.components.securitySchemes.TransferKey).toMatchObject({ type: "apiKey", name: KEY_HEADER });
  });
});
