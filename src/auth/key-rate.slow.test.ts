import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import { PARTNER_LIMITS } from "../partners/limits.ts";
import type { Store } from "../store/create-store.ts";
import { spendKeyRate } from "./key-rate.ts";
import { partnerKeys } from "./partner-keys.ts";
import { pruneQuotaCounters } from "./quotas.ts";

/** A partner key's rate, as the partner gate spends it (api/partner-access.ts). */
const spendPartnerRate = (db: Store["db"], keyId: string, bucket: "quote" | "tokens") =>
  spendKeyRate(db, keyId, bucket, PARTNER_LIMITS.ratePerKeyPerMinute[bucket]);

describe.each(storeBackends())("per-key rate limits on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  const key = async () => (await partnerKeys.issue(store.db, { name: "rate", scopes: [] })).id;

  it("grants exactly the key's per-minute quotes under concurrency, then a retry time", async () => {
    const id = await key();
    const limit = PARTNER_LIMITS.ratePerKeyPerMinute.quote;
    const decisions = await Promise.all(
      Array.from({ length: limit + 15 }, () => spendPartnerRate(store.db, id, "quote")),
    );
    const granted = decisions.filter((d) => d.ok).length;
    // Exactly the limit, unless a minute boundary fell inside the burst: then no window holds more than it.
    const windows = await store.db
      .selectFrom("key_rate_counters")
      .select("count")
      .where("key_id", "=", id)
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

  it("prunes key counters of windows that ended more than a day ago, keeping the current ones", async () => {
    const id = await key();
    await spendPartnerRate(store.db, id, "tokens");
    await sql`insert into key_rate_counters (key_id, bucket, window_start, count)
      values (${id}, 'quote', now() - interval '2 days', 5)`.execute(store.db);
    expect(await pruneQuotaCounters(store.db)).toBeGreaterThanOrEqual(1);
    const left = await store.db
      .selectFrom("key_rate_counters")
      .selectAll()
      .where("key_id", "=", id)
      .execute();
    expect(left.map((row) => row.bucket)).toEqual(["tokens"]);
  });
});
