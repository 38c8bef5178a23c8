import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import type { Store } from "../store/create-store.ts";
import { TRANSFER_LIMITS } from "../transfers/limits.ts";
import { generateApiKey } from "./api-key.ts";
import { KeyPolicyError } from "./key-family.ts";
import { spendKeyRate } from "./key-rate.ts";
import { transferKeys } from "./transfer-keys.ts";

const {
  authenticate: authenticateTransferKey,
  issue: createTransferKey,
  find: findTransferKey,
  list: listTransferKeys,
  revoke: revokeTransferKey,
} = transferKeys;
const spendTransferRate = (db: Store["db"], keyId: string) =>
  spendKeyRate(db, keyId, "estimates", TRANSFER_LIMITS.ratePerKeyPerMinute);

describe.each(storeBackends())("transfer customer keys on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("issues scoped jtk_ keys, stores only their hash, and authenticates them", async () => {
    const key = await createTransferKey(store.db, { name: "acme", scopes: ["transfers", "estimates"] });
    expect(key.secret).toMatch(/^jtk_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(key.scopes).toEqual(["estimates", "transfers"]);
    expect(await authenticateTransferKey(store.db, key.secret)).toEqual({
      keyId: key.id,
      name: "acme",
      scopes: ["estimates", "transfers"],
    });
    const { rows } = await sql<{
      row: string;
    }>`select row_to_json(t)::text as row from keys t`.execute(store.db);
    expect(rows.map((r) => r.row).join("")).not.toContain(key.secret.slice(17));
  });

  it("refuses missing, malformed, foreign, unknown, expired and revoked keys, each with its reason", async () => {
    const now = new Date();
    const expiring = await createTransferKey(store.db, {
      name: "short",
      scopes: ["estimates"],
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const later = new Date(now.getTime() + 120_000);
    expect(await authenticateTransferKey(store.db, expiring.secret, later)).toEqual({ failure: "expired" });
    expect(await authenticateTransferKey(store.db, undefined)).toEqual({ failure: "missing" });
    expect(await authenticateTransferKey(store.db, "  ")).toEqual({ failure: "missing" });
    expect(await authenticateTransferKey(store.db, "jtk_short")).toEqual({ failure: "malformed" });
    expect(await authenticateTransferKey(store.db, generateApiKey("jpk").secret)).toEqual({
      failure: "malformed",
    });
    expect(await authenticateTransferKey(store.db, generateApiKey("jtk").secret)).toEqual({
      failure: "unknown",
    });
    const revoked = await createTransferKey(store.db, { name: "gone", scopes: ["estimates"] });
    expect(await revokeTransferKey(store.db, revoked.id)).toBe(true);
    expect(await revokeTransferKey(store.db, revoked.id)).toBe(false);
    expect(await authenticateTransferKey(store.db, revoked.secret)).toEqual({ failure: "revoked" });
    expect((await findTransferKey(store.db, revoked.prefix))?.status).toBe("revoked");
    expect((await listTransferKeys(store.db, { now: later })).find((k) => k.id === expiring.id)?.status).toBe(
      "expired",
    );
  });

  it("refuses a key without a name or scope, with an unknown scope, or expiring in the past", async () => {
    await expect(createTransferKey(store.db, { name: " ", scopes: ["estimates"] })).rejects.toThrow(
      KeyPolicyError,
    );
    await expect(createTransferKey(store.db, { name: "n", scopes: [] })).rejects.toThrow(KeyPolicyError);
    await expect(createTransferKey(store.db, { name: "n", scopes: ["quote" as never] })).rejects.toThrow(
      /unknown scope quote/,
    );
    await expect(
      createTransferKey(store.db, { name: "n", scopes: ["estimates"], expiresAt: new Date(Date.now() - 1) }),
    ).rejects.toThrow(/past/);
  });

  it("spends each key's own per-minute rate, all processes sharing it", async () => {
    const key = await createTransferKey(store.db, { name: "rate", scopes: ["estimates"] });
    const other = await createTransferKey(store.db, { name: "other", scopes: ["estimates"] });
    await sql`insert into key_rate_counters (key_id, bucket, window_start, count)
      values (${key.id}, 'estimates', date_bin('1 minute'::interval, now(), timestamptz '2000-01-01 00:00:00+00'), 60)`.execute(
      store.db,
    );
    const refused = await spendTransferRate(store.db, key.id);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await spendTransferRate(store.db, other.id)).toEqual({ ok: true });
  });
});
