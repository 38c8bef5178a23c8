import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import type { Store } from "../store/create-store.ts";
import { createWorkspace } from "./keys.ts";
import { PLANS } from "./plans.ts";
import { currentUsage, pruneQuotaCounters, spendQuota } from "./quotas.ts";

const backends = storeBackends();

describe.each(backends)("workspace quotas on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  const workspace = async () => {
    const created = await createWorkspace(store.db, { name: `q-${randomUUID()}` });
    return { id: created.id, plan: "free" };
  };

  it("grants exactly 10 builder quotes a minute under concurrency, then 429 with a retry time", async () => {
    const ws = await workspace();
    const decisions = await Promise.all(Array.from({ length: 25 }, () => spendQuota(store.db, ws, "quote")));
    expect(decisions.filter((d) => d.ok)).toHaveLength(PLANS.free.quotesPerMinute);
    const refused = decisions.find((d) => !d.ok);
    expect(refused).toMatchObject({ ok: false, reason: "rate" });
    if (refused && !refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    if (refused && !refused.ok) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Refused requests spent nothing; the other buckets are untouched.
    expect(await currentUsage(store.db, ws.id)).toMatchObject({ quote: 10, hourly: 10, tokens: 0 });
    expect(await spendQuota(store.db, ws, "tokens")).toEqual({ ok: true });
  });

  it("counts swap preparations in usage and toward the hour, with no per-minute limit of their own", async () => {
    const ws = await workspace();
    for (let i = 0; i < PLANS.free.quotesPerMinute + 2; i++)
      expect(await spendQuota(store.db, ws, "swap")).toEqual({ ok: true });
    const spent = PLANS.free.quotesPerMinute + 2;
    expect(await currentUsage(store.db, ws.id)).toMatchObject({ swap: spent, hourly: spent, quote: 0 });
  });

  it("shares nothing between workspaces", async () => {
    const [a, b] = [await workspace(), await workspace()];
    for (let i = 0; i < 10; i++) await spendQuota(store.db, a, "quote");
    expect((await spendQuota(store.db, a, "quote")).ok).toBe(false);
    expect(await spendQuota(store.db, b, "quote")).toEqual({ ok: true });
  });

  it("answers the hourly allowance with its own refusal and spends no per-minute unit for it", async () => {
    const ws = await workspace();
    await sql`insert into quota_counters (workspace_id, bucket, window_start, count)
      values (${ws.id}, 'hourly', date_bin('1 hour'::interval, now(), timestamptz '2000-01-01 00:00:00+00'),
              ${PLANS.free.requestsPerHour})`.execute(store.db);
    const refused = await spendQuota(store.db, ws, "receipts");
    expect(refused).toMatchObject({ ok: false, reason: "allowance" });
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(await currentUsage(store.db, ws.id)).toMatchObject({ receipts: 0 });
    expect(await spendQuota(store.db, ws, "swap")).toMatchObject({ ok: false, reason: "allowance" });
    expect(await currentUsage(store.db, ws.id)).toMatchObject({ swap: 0 });
  });

  it("prunes counters of windows that ended more than a day ago, keeping the current ones", async () => {
    const ws = await workspace();
    await spendQuota(store.db, ws, "tokens");
    await sql`insert into quota_counters (workspace_id, bucket, window_start, count)
      values (${ws.id}, 'tokens', now() - interval '2 days', 5)`.execute(store.db);
    expect(await pruneQuotaCounters(store.db)).toBeGreaterThanOrEqual(1);
    const left = await store.db
      .selectFrom("quota_counters")
      .selectAll()
      .where("workspace_id", "=", ws.id)
      .execute();
    expect(left.map((row) => row.bucket).sort()).toEqual(["hourly", "tokens"]);
  });
});
