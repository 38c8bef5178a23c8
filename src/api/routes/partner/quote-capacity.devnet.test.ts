import { type Address, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { createPartnerTestApi } from "../../../../test/partner-api.ts";
import { spendKeyRate } from "../../../auth/key-rate.ts";
import { PARTNER_LIMITS } from "../../../partners/limits.ts";
import { createAdmission } from "../../../quote/admission.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * `GET {partner_url}/quote` at its capacity: a 429 BUSY with Retry-After that spends none of the key's rate,
 * and `ok: false` with `timeout` past the quote deadline (docs/rules.md, partner quote rule 6). The
 * parameter table, quotes and transactions are in `quote.devnet.test.ts`.
 */
let devnet: TestDevnet;

beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(async () => {
  await devnet?.dispose();
});

const token = (symbol: string) =>
  devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase() as Address;

describe("GET {partner_url}/quote: capacity", () => {
  const query = () => ({ in: zeroAddress, out: token("USDC"), amount: parseEther("1").toString() });

  it("answers 429 BUSY with Retry-After when the partner capacity is used, spending none of the key's rate", async () => {
    const busy = await createPartnerTestApi(devnet, { admission: createAdmission({ concurrency: 0 }) });
    const response = await busy.get("/quote", query());
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(((await response.json()) as Json).error.code).toBe("BUSY");
    // The whole minute's rate is still there.
    const limit = PARTNER_LIMITS.ratePerKeyPerMinute.quote;
    const spend = async () => (await spendKeyRate(busy.store.db, busy.keys.swap.id, "quote", limit)).ok;
    for (let i = 0; i < limit; i++) expect(await spend()).toBe(true);
    expect(await spend()).toBe(false);
    await busy.close();
  });

  it("answers ok: false with error timeout past the quote deadline", async () => {
    const slow = await createPartnerTestApi(devnet, { admission: createAdmission({ deadlineMs: 1 }) });
    const response = await slow.get("/quote", query());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: false, error: "timeout", amountIn: query().amount });
    await slow.close();
  });
});
