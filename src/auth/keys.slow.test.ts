import { Hono } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/store-backends.ts";
import { type AuthVariables, builderAccess, chargeRequest } from "../api/builder-access.ts";
import { handleError } from "../api/errors.ts";
import type { Store } from "../store/create-store.ts";
import { KeyPolicyError } from "./key-family.ts";
import { builderKeys, createBuilderKey, createWorkspace, markActivated } from "./keys.ts";

const authenticate = builderKeys.authenticate;
const revokeKey = builderKeys.revoke;

import { PLANS } from "./plans.ts";

const backends = storeBackends();

describe.each(backends)("workspaces and keys on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("allows tokens and receipts keys before activation, quote and swap keys only after", async () => {
    const code = `acme-${Date.now().toString(36)}`;
    const workspace = await createWorkspace(store.db, { name: "acme", builderCode: code });
    await expect(
      createBuilderKey(store.db, { workspaceId: workspace.id, name: "ro", scopes: ["tokens", "receipts"] }),
    ).resolves.toMatchObject({
      scopes: ["tokens", "receipts"],
    });
    await expect(
      createBuilderKey(store.db, { workspaceId: workspace.id, name: "q", scopes: ["quote"] }),
    ).rejects.toBeInstanceOf(KeyPolicyError);
    expect(await markActivated(store.db, code, new Date())).toBe(true);
    const key = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "q",
      scopes: ["quote", "swap"],
    });
    expect(await authenticate(store.db, key.secret)).toEqual({
      keyId: key.id,
      workspaceId: workspace.id,
      scopes: ["quote", "swap"],
      builderCode: code,
      plan: "free",
      activated: true,
    });
  });

  it("stores only the hash: the secret is nowhere in the database", async () => {
    const workspace = await createWorkspace(store.db, { name: "hash" });
    const key = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "t",
      scopes: ["tokens"],
    });
    const row = await store.db
      .selectFrom("keys")
      .selectAll()
      .where("id", "=", key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(key.prefix.length + 1));
    expect(row.prefix).toBe(key.prefix);
  });

  it("refuses missing, malformed, unknown, expired and revoked keys, each for its reason", async () => {
    const workspace = await createWorkspace(store.db, { name: "life" });
    const expiring = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "e",
      scopes: ["tokens"],
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await authenticate(store.db, undefined)).toEqual({ failure: "missing" });
    expect(await authenticate(store.db, "jct_nope")).toEqual({ failure: "malformed" });
    const other = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "o",
      scopes: ["tokens"],
    });
    await store.db.deleteFrom("keys").where("id", "=", other.id).execute();
    expect(await authenticate(store.db, other.secret)).toEqual({ failure: "unknown" });
    expect(await authenticate(store.db, expiring.secret, new Date(Date.now() + 120_000))).toEqual({
      failure: "expired",
    });
    expect(await revokeKey(store.db, expiring.id)).toBe(true);
    expect(await authenticate(store.db, expiring.secret)).toEqual({ failure: "revoked" });
  });

  it("answers 401 and 403 through the middleware, and a revocation bites on the next request", async () => {
    const workspace = await createWorkspace(store.db, { name: "http" });
    const key = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "t",
      scopes: ["tokens"],
    });
    const app = new Hono<{ Variables: AuthVariables }>();
    app.onError(handleError(() => {}));
    app.get("/tokens", builderAccess(store.db, "tokens"), (c) =>
      c.json({ workspace: c.get("principal").workspaceId }),
    );
    app.get("/receipts", builderAccess(store.db, "receipts"), (c) => c.json({}));

    const get = (path: string, apiKey?: string) =>
      app.request(path, apiKey ? { headers: { "x-api-key": apiKey } } : {});
    expect((await get("/tokens")).status).toBe(401);
    const ok = await get("/tokens", key.secret);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ workspace: workspace.id });
    const forbidden = await get("/receipts", key.secret);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      error: { code: "FORBIDDEN", message: "the API key lacks the receipts scope" },
    });
    await revokeKey(store.db, key.id);
    const revoked = await get("/tokens", key.secret);
    expect(revoked.status).toBe(401);
    expect(await revoked.text()).not.toContain(key.secret);
  });

  it("answers a spent hourly allowance with 402 and Retry-After through the middleware", async () => {
    const workspace = await createWorkspace(store.db, { name: "allowance" });
    const key = await createBuilderKey(store.db, {
      workspaceId: workspace.id,
      name: "t",
      scopes: ["tokens"],
    });
    const app = new Hono<{ Variables: AuthVariables }>();
    app.onError(handleError(() => {}));
    app.get("/tokens", builderAccess(store.db, "tokens"), async (c) => {
      await chargeRequest(c);
      return c.json({});
    });
    await sql`insert into quota_counters (workspace_id, bucket, window_start, count)
      values (${workspace.id}, 'hourly', date_bin('1 hour'::interval, now(), timestamptz '2000-01-01 00:00:00+00'),
              ${PLANS.free.requestsPerHour})`.execute(store.db);
    const refused = await app.request("/tokens", { headers: { "x-api-key": key.secret } });
    expect(refused.status).toBe(402);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ALLOWANCE_EXHAUSTED");
  });
});
