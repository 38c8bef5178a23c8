import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import { createPartnerKey } from "../auth/partner-keys.ts";
import { pruneQuotaCounters } from "../auth/quotas.ts";
import type { Store } from "../store/create-store.ts";
import { PARTNER_LIMITS } from "./limits.ts";
import { spendPartnerRate } from "./rate-limit.ts";

describe.each(storeBackends())("partner rate limits on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  const key = async () => (await createPartnerKey(store.db, { name: "rate", swap: false })).id;

  it("grants exactly the key's per-minute quotes under concurrency, then a retry time", async () => {
    const id = await key();
    const limit = PARTNER_LIMITS.ratePerKeyPerMinute.quote;
    const decisions = await Promise.all(
      Array.from({ length: limit + 15 }, () => spendPartnerRate(store.db, id, "quote")),
    );
    const granted = decisions.filter((d) => d.ok).length;
    // Exactly the limit, unless a minute boundary fell inside the burst: then no window holds more than it.
    const windows = await store.db
      .selectFrom("partner_rate_counters")
      .select("count")
      .where("partner_key_id", "=", id)
      .where("bucket", "=", "quote")
      .execute();
    expect(windows.reduce((sum, w) => sum + w.count, 0)).toBe(granted);
    for (const window of windows) expect(window.count).toBeLessThanOrEqual(limit);
    if (windows.length === 1) expect(granted).toBe(limit);
    const refused = decisions.find((d) => !d.ok);
    if (refused && !refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Token lookups are a bucket of their own; another key shares nothing.
    expect(await spendPartnerRate(store.db, id, "tokens")).toEqual({ ok: true });
    expect(await spendPartnerRate(store.db, await key(), "quote")).toEqual({ ok: true });
  });

  it("prunes partner counters of windows that ended more than a day ago, keeping the current ones", async () => {
    const id = await key();
    await spendPartnerRate(store.db, id, "tokens");
    await sql`insert into partner_rate_counters (partner_key_id, bucket, window_start, count)
      values (${id}, 'quote', now() - interval '2 days', 5)`.execute(store.db);
    expect(await pruneQuotaCounters(store.db)).toBeGreaterThanOrEqual(1);
    const left = await store.db
      .selectFrom("partner_rate_counters")
      .selectAll()
      .where("partner_key_id", "=", id)
      .execute();
    expect(left.map((row) => row.bucket)).toEqual(["tokens"]);
  });
});
