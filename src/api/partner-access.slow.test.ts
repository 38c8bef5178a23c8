import { Hono } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import { spendKeyRate } from "../auth/key-rate.ts";
import { partnerKeys } from "../auth/partner-keys.ts";
import { PARTNER_LIMITS } from "../partners/limits.ts";
import type { Store } from "../store/create-store.ts";
import { handleError } from "./errors.ts";
import {
  chargePartnerRequest,
  type PartnerAccessVariables,
  partnerAccess,
  requireSwapPermission,
} from "./partner-access.ts";

type ErrorBody = { error: { code: string; message: string } };

const createPartnerKey = (db: Store["db"], input: { name: string; swap: boolean; expiresAt?: Date }) =>
  partnerKeys.issue(db, {
    name: input.name,
    scopes: input.swap ? ["swap"] : [],
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  });
const revokePartnerKey = partnerKeys.revoke;

describe.each(storeBackends())("the partner gate on %s", (_, open) => {
  let store: Store;
  let app: Hono<{ Variables: PartnerAccessVariables }>;
  beforeAll(async () => {
    store = await open();
    app = new Hono<{ Variables: PartnerAccessVariables }>();
    app.onError(handleError(() => {}));
    app.get("/tokens", partnerAccess(store.db, "tokens"), async (c) => {
      await chargePartnerRequest(c);
      await chargePartnerRequest(c); // a second call in the same request spends nothing
      return c.json(c.get("partner"));
    });
    app.get("/quote", partnerAccess(store.db, "quote"), async (c) => {
      requireSwapPermission(c, Object.keys(c.req.query()));
      await chargePartnerRequest(c);
      return c.json({ ok: true });
    });
  });
  afterAll(() => store?.close());

  const get = (path: string, authorization?: string) =>
    app.request(path, authorization === undefined ? {} : { headers: { authorization } });
  /** What the key has spent from `bucket` in the current minute window. */
  const spent = async (keyId: string, bucket: string) => {
    const { rows } = await sql<{ count: number }>`
      select count from key_rate_counters where key_id = ${keyId} and bucket = ${bucket}
        and window_start = date_bin('1 minute'::interval, now(), timestamptz '2000-01-01 00:00:00+00')`.execute(
      store.db,
    );
    return Number(rows[0]?.count ?? 0);
  };

  it("answers 401 for a missing, malformed, unknown, expired or revoked key, never echoing it", async () => {
    const key = await createPartnerKey(store.db, { name: "gate", swap: false });
    const expired = await createPartnerKey(store.db, {
      name: "old",
      swap: false,
      expiresAt: new Date(Date.now() + 1_000),
    });
    const cases: [string | undefined, string][] = [
      [undefined, "missing partner API key: send it as Authorization: Bearer <key>"],
      ["  ", "missing partner API key: send it as Authorization: Bearer <key>"],
      [key.secret, "invalid partner API key"],
      [`Basic ${key.secret}`, "invalid partner API key"],
      [`Bearer ${key.secret.slice(0, -2)}`, "invalid partner API key"],
      [`Bearer ${key.secret.replace(key.id, "A".repeat(12))}`, "invalid partner API key"],
    ];
    for (const [authorization, message] of cases) {
      const response = await get("/tokens", authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: "UNAUTHORIZED", message } });
      expect(text).not.toContain(key.secret.slice(17));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const late = await get("/tokens", `Bearer ${expired.secret}`);
    expect(late.status).toBe(401);
    expect(((await late.json()) as ErrorBody).error.message).toBe("the partner API key has expired");

    expect((await get("/tokens", `Bearer ${key.secret}`)).status).toBe(200);
    // The scheme is case-insensitive (RFC 6750).
    expect((await get("/tokens", `bearer ${key.secret}`)).status).toBe(200);
    await revokePartnerKey(store.db, key.id);
    const revoked = await get("/tokens", `Bearer ${key.secret}`);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as ErrorBody).error.message).toBe("the partner API key has been revoked");
  });

  it("sets the partner and charges its tokens rate once per request", async () => {
    const key = await createPartnerKey(store.db, { name: "lookup", swap: true });
    const response = await get("/tokens", `Bearer ${key.secret}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keyId: key.id, name: "lookup", swap: true });
    expect(await spent(key.id, "tokens")).toBe(1);
  });

  it("answers 403 naming the transaction parameters a quote-only key used, spending nothing", async () => {
    const quoteOnly = await createPartnerKey(store.db, { name: "q", swap: false });
    const swap = await createPartnerKey(store.db, { name: "s", swap: true });
    expect((await get("/quote?in=a&out=b&amount=1", `Bearer ${quoteOnly.secret}`)).status).toBe(200);
    const forbidden = await get("/quote?in=a&recipient=0x1&deadline=9", `Bearer ${quoteOnly.secret}`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      error: { code: "FORBIDDEN", message: "recipient, deadline need a partner key with swap permission" },
    });
    const one = await get("/quote?minOut=1", `Bearer ${quoteOnly.secret}`);
    expect(((await one.json()) as ErrorBody).error.message).toBe(
      "minOut needs a partner key with swap permission",
    );
    expect(await spent(quoteOnly.id, "quote")).toBe(1);
    const allowed = `/quote?recipient=0x1&slippageBps=5&minOut=1&deadline=9`;
    expect((await get(allowed, `Bearer ${swap.secret}`)).status).toBe(200);
  });

  it("answers 429 RATE_LIMITED with Retry-After once the key's minute is spent; the refusal spends nothing", async () => {
    const key = await createPartnerKey(store.db, { name: "busy", swap: false });
    const other = await createPartnerKey(store.db, { name: "calm", swap: false });
    const limit = PARTNER_LIMITS.ratePerKeyPerMinute.quote;
    expect((await get("/quote", `Bearer ${key.secret}`)).status).toBe(200);
    // Fill this minute's window and the next one, so the refusal holds even if the minute turns now.
    await sql`insert into key_rate_counters (key_id, bucket, window_start, count)
      select ${key.id}, 'quote',
             date_bin('1 minute'::interval, now(), timestamptz '2000-01-01 00:00:00+00') + o.offset_, ${limit}
      from (values (interval '0 minutes'), (interval '1 minute')) as o(offset_)
      on conflict (key_id, bucket, window_start) do update set count = excluded.count`.execute(store.db);
    const refused = await get("/quote", `Bearer ${key.secret}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await refused.json()) as ErrorBody).error).toEqual({
      code: "RATE_LIMITED",
      message: "the partner key's per-minute quote rate is spent",
    });
    expect(await spent(key.id, "quote")).toBe(limit);
    expect(await spendKeyRate(store.db, key.id, "quote", limit)).toMatchObject({ ok: false });
    expect(await spent(key.id, "quote")).toBe(limit);
    // Per key and per bucket: the same key's token lookups and another key's quotes are untouched.
    expect((await get("/tokens", `Bearer ${key.secret}`)).status).toBe(200);
    expect((await get("/quote", `Bearer ${other.secret}`)).status).toBe(200);
  });
});
