import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import type { Store } from "../store/create-store.ts";
import { generateApiKey } from "./api-key.ts";
import { KeyPolicyError } from "./key-family.ts";
import { partnerKeys } from "./partner-keys.ts";

const createPartnerKey = (db: Store["db"], input: { name: string; swap: boolean; expiresAt?: Date }) =>
  partnerKeys.issue(db, {
    name: input.name,
    scopes: input.swap ? ["swap"] : [],
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  });
const { authenticate, find: findPartnerKey, list: listPartnerKeys, revoke: revokePartnerKey } = partnerKeys;

describe.each(storeBackends())("partner keys on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("issues jpk_ keys with and without swap permission, and authenticates them as bearer tokens", async () => {
    const swap = await createPartnerKey(store.db, { name: "wallet-backend", swap: true });
    const quote = await createPartnerKey(store.db, { name: "price-widget", swap: false });
    expect(swap.secret).toMatch(/^jpk_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(swap.prefix).toBe(`jpk_${swap.id}`);
    expect(await authenticate(store.db, swap.secret)).toEqual({
      keyId: swap.id,
      name: "wallet-backend",
      swap: true,
    });
    expect(await authenticate(store.db, quote.secret)).toEqual({
      keyId: quote.id,
      name: "price-widget",
      swap: false,
    });
  });

  it("stores only the hash: the secret is nowhere in the database", async () => {
    const key = await createPartnerKey(store.db, { name: "hash", swap: false });
    const row = await store.db
      .selectFrom("keys")
      .selectAll()
      .where("id", "=", key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(key.prefix.length + 1));
    expect(row.prefix).toBe(key.prefix);
  });

  it("refuses missing, malformed, unknown, expired and revoked keys, each for its reason", async () => {
    const expiring = await createPartnerKey(store.db, {
      name: "e",
      swap: false,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await authenticate(store.db, undefined)).toEqual({ failure: "missing" });
    expect(await authenticate(store.db, "  ")).toEqual({ failure: "missing" });
    expect(await authenticate(store.db, `Basic ${expiring.secret}`)).toEqual({ failure: "malformed" });
    // The last character changed (to one it is not), so the checksum no longer matches.
    const altered = `${expiring.secret.slice(0, -1)}${expiring.secret.endsWith("x") ? "y" : "x"}`;
    expect(await authenticate(store.db, altered)).toEqual({
      failure: "malformed",
    });
    // A builder key is not a partner key, whatever it opens elsewhere.
    expect(await authenticate(store.db, generateApiKey("jct").secret)).toEqual({
      failure: "malformed",
    });
    expect(await authenticate(store.db, generateApiKey("jpk").secret)).toEqual({
      failure: "unknown",
    });
    const later = new Date(Date.now() + 120_000);
    expect(await authenticate(store.db, expiring.secret, later)).toEqual({
      failure: "expired",
    });
    expect(await revokePartnerKey(store.db, expiring.id)).toBe(true);
    expect(await revokePartnerKey(store.db, expiring.id)).toBe(false);
    expect(await authenticate(store.db, expiring.secret)).toEqual({ failure: "revoked" });
  });

  it("refuses an expiry in the past or an empty name", async () => {
    await expect(
      createPartnerKey(store.db, { name: "p", swap: true, expiresAt: new Date(Date.now() - 1) }),
    ).rejects.toBeInstanceOf(KeyPolicyError);
    await expect(createPartnerKey(store.db, { name: " ", swap: true })).rejects.toBeInstanceOf(
      KeyPolicyError,
    );
  });

  it("lists keys with their status, never a secret or a hash, and finds one by id or prefix", async () => {
    const key = await createPartnerKey(store.db, {
      name: "listed",
      swap: true,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const listed = (await listPartnerKeys(store.db)).find((k) => k.id === key.id);
    expect(listed).toEqual({
      id: key.id,
      prefix: key.prefix,
      name: "listed",
      swap: true,
      status: "active",
      expiresAt: key.expiresAt,
      revokedAt: null,
      createdAt: expect.any(Date),
    });
    expect(JSON.stringify(await listPartnerKeys(store.db))).not.toContain(key.secret);
    expect((await findPartnerKey(store.db, key.prefix))?.id).toBe(key.id);
    expect((await findPartnerKey(store.db, key.id, new Date(Date.now() + 7_200_000)))?.status).toBe(
      "expired",
    );
    await revokePartnerKey(store.db, key.id);
    expect((await findPartnerKey(store.db, key.id))?.status).toBe("revoked");
    expect(await findPartnerKey(store.db, "jpk_nope")).toBeUndefined();
  });
});
