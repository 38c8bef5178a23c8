import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/store-backends.ts";
import type { Store } from "../create-store.ts";
import { type CounterSpend, countersInCurrentWindows, spendFromCounters } from "./quota-counters.ts";
import { insertWorkspace } from "./workspaces.ts";

describe.each(storeBackends())("quota counters on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("spends from every counter or from none: a refusal gives back the units spent before it", async () => {
    const id = randomUUID();
    await insertWorkspace(store.db, { id, name: "counters", builderCode: null });
    const a: CounterSpend = { bucket: "a", window: "1 minute", limit: 5 };
    const b: CounterSpend = { bucket: "b", window: "1 minute", limit: 5 };
    const full: CounterSpend = { bucket: "hourly", window: "1 hour", limit: 1 };
    expect(await spendFromCounters(store.db, id, [full])).toEqual({ ok: true });

    const refused = await spendFromCounters(store.db, id, [a, b, full]);
    expect(refused).toMatchObject({ ok: false, refused: full });
    if (!refused.ok) expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    const counts = await countersInCurrentWindows(store.db, id, "hourly");
    expect(Object.fromEntries(counts.map((row) => [row.bucket, Number(row.count)]))).toEqual({
      a: 0,
      b: 0,
      hourly: 1,
    });
    expect(await spendFromCounters(store.db, id, [a, b])).toEqual({ ok: true });
  });
});
