import { randomBytes } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import { sql } from "kysely";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { storeBackends } from "../../../../test/store-backends.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { SETTLEMENT_EVENT_TYPES } from "../../../events/event-envelope.ts";
import { createOutboxSignal } from "../../../events/outbox-signal.ts";
import type { WebhookPolicy } from "../../../events/webhook-endpoints.ts";
import { signInSite } from "../../../portal/sign-in-message.ts";
import type { Store } from "../../../store/create-store.ts";
import { sharedSecret } from "../../../store/repositories/service-secrets.ts";
import { recordAttempt } from "../../../store/repositories/webhook-deliveries.ts";
import type { Db } from "../../../store/schema.ts";
import { handleError } from "../../errors.ts";
import { registerPortalApi } from "./portal-api.ts";
import type { PortalWebhookDeps } from "./portal-webhooks.ts";

/**
 * The portal API in-process on a test devnet and each store backend: nonces cost the database nothing,
 * and every process sharing the database accepts the nonces any of them issued.
 */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const site = signInSite("http://junction.test:8787");

/** One process's portal API on `store`, as the service mounts it (the nonce secret read from the store). */
async function portalApp(store: Store, webhooks?: PortalWebhookDeps): Promise<OpenAPIHono> {
  const app = new OpenAPIHono();
  app.onError(handleError(() => {}));
  registerPortalApi(app, {
    db: store.db,
    client: devnet.publicClient as never,
    deployment: devnet.manifest,
    cursorSecret: await sharedSecret(store.db, "history-cursor"),
    settlementIndex: undefined as never,
    site,
    nonceSecret: await sharedSecret(store.db, "portal-nonce"),
    ...(webhooks ? { webhooks } : {}),
  });
  return app;
}

/** Signs `account` in to `app` with Sign-In with Ethereum; the session cookie to send. */
async function signedIn(app: OpenAPIHono, account: number): Promise<string> {
  const { nonce } = (await (await app.request("/portal/api/nonce")).json()) as { nonce: string };
  const signer = privateKeyToAccount(devnet.manifest.accounts[account]!.privateKey as Hex);
  const message = createSiweMessage({
    domain: site.domain,
    address: signer.address,
    uri: site.origin,
    version: "1",
    chainId: CHAIN_ID,
    nonce,
    issuedAt: new Date(),
    expirationTime: new Date(Date.now() + 600_000),
  });
  const answer = await app.request("/portal/api/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, signature: await signer.signMessage({ message }) }),
  });
  expect(answer.status).toBe(200);
  return answer.headers.get("set-cookie")!.split(";")[0]!;
}

/** Rows in every table of the schema, by table. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows)
    counts[name] = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db))
      .rows[0]!.n;
  return counts;
}

describe.each(storeBackends())("portal sign-in nonces on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  it("issuing 10,000 nonces writes no row; only a sign-in records its nonce", async () => {
    const app = await portalApp(store);
    const before = await rowCounts(store.db);
    const nonces = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const answer = await app.request("/portal/api/nonce");
      expect(answer.status).toBe(200);
      nonces.add(((await answer.json()) as { nonce: string }).nonce);
    }
    expect(nonces.size).toBe(10_000);
    expect(await rowCounts(store.db)).toEqual(before);

    // A second process on the same database accepts a nonce the first issued, once.
    const other = await portalApp(store);
    const [nonce] = nonces;
    const account = privateKeyToAccount(devnet.manifest.accounts[5]!.privateKey as Hex);
    const message = createSiweMessage({
      domain: site.domain,
      address: account.address,
      uri: site.origin,
      version: "1",
      chainId: CHAIN_ID,
      nonce: nonce!,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 600_000),
    });
    const signature = await account.signMessage({ message });
    const signIn = () =>
      other.request("/portal/api/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message, signature }),
      });
    expect((await signIn()).status).toBe(200);
    const after = await rowCounts(store.db);
    expect(after.portal_used_nonces).toBe(before.portal_used_nonces! + 1);
    expect(after.portal_sessions).toBe(before.portal_sessions! + 1);
    const replay = await signIn();
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({
      error: { code: "UNAUTHORIZED", message: "the nonce was already used; ask for a new one" },
    });
  });
});

describe.each(storeBackends())("portal webhook routes on %s", (_, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());

  /** Outside the devnet: HTTPS to public addresses only. An IP literal needs no DNS. */
  const policy: WebhookPolicy = { allowHttp: false, allowPrivate: false };
  const publicUrl = "https://93.184.215.14/junction/hooks";

  it("adds an endpoint with its secret shown once, tests, logs and redelivers, rotates and removes it, for its owner only", async () => {
    let wakes = 0;
    const signal = createOutboxSignal();
    const app = await portalApp(store, { policy, signal: { ...signal, notify: () => void wakes++ } });
    const owner = await signedIn(app, 6);
    const stranger = await signedIn(app, 7);
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, their shape is what the assertions check
    const call = async (cookie: string, method: string, path: string, body?: unknown): Promise<any> => {
      const answer = await app.request(`/portal/api${path}`, {
        method,
        headers: { cookie, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const raw = await answer.text();
      return { status: answer.status, raw, body: raw ? JSON.parse(raw) : undefined };
    };
    const code = `hooks-${randomBytes(4).toString("hex")}`;
    const created = await call(owner, "POST", "/workspaces", { name: "Hooks", code });
    expect(created.status).toBe(201);
    const hooks = `/workspaces/${created.body.workspace.id}/webhooks`;

    const added = await call(owner, "POST", hooks, { url: publicUrl, eventTypes: ["settlement.finalized"] });
    expect(added.status).toBe(201);
    expect(added.body.secret).toMatch(/^whsec_/);
    expect(added.body.endpoint).toMatchObject({
      url: publicUrl,
      eventTypes: ["settlement.finalized"],
      previousSecretValidUntil: null,
    });
    const endpoint = added.body.endpoint.id as string;
    const listed = await call(owner, "GET", hooks);
    expect(listed.body).toEqual({
      endpoints: [added.body.endpoint],
      eventTypes: [...SETTLEMENT_EVENT_TYPES],
    });
    expect(listed.raw).not.toContain(added.body.secret);

    // A test event is one delivery, to this endpoint, pending until the sender (woken at once) sends it.
    const tested = await call(owner, "POST", `${hooks}/${endpoint}/test`);
    expect(tested.status).toBe(202);
    expect(wakes).toBe(1);
    const log = await call(owner, "GET", `${hooks}/${endpoint}/deliveries`);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({
        id: tested.body.deliveryId,
        eventId: tested.body.eventId,
        eventType: "webhook.test",
        status: "pending",
        attempts: 0,
        lastStatus: null,
        lastAttemptAt: null,
      }),
    ]);
    expect(Date.parse(log.body.deliveries[0].nextAttemptAt)).not.toBeNaN();

    // A delivery that failed for good is sent again from the start of the schedule.
    await recordAttempt(store.db, tested.body.deliveryId, {
      status: "failed",
      httpStatus: 500,
      error: "HTTP 500",
      responseExcerpt: "down",
    });
    const failed = (await call(owner, "GET", `${hooks}/${endpoint}/deliveries`)).body.deliveries[0];
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastStatus: 500, lastError: "HTTP 500" });
    expect(failed.nextAttemptAt).toBeNull();
    const redelivered = await call(
      owner,
      "POST",
      `${hooks}/${endpoint}/deliveries/${tested.body.deliveryId}/redeliver`,
    );
    expect(redelivered.status).toBe(202);
    expect(wakes).toBe(2);
    expect((await call(owner, "GET", `${hooks}/${endpoint}/deliveries`)).body.deliveries[0]).toMatchObject({
      status: "pending",
      attempts: 0,
    });
    expect((await call(owner, "POST", `${hooks}/${endpoint}/deliveries/nope/redeliver`)).status).toBe(404);

    // Rotating shows the new secret once; the old one stays valid for a while, neither is ever listed.
    const rotated = await call(owner, "POST", `${hooks}/${endpoint}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(added.body.secret);
    expect(Date.parse(rotated.body.endpoint.previousSecretValidUntil)).toBeGreaterThan(Date.now());
    const relisted = await call(owner, "GET", hooks);
    for (const secret of [added.body.secret, rotated.body.secret]) expect(relisted.raw).not.toContain(secret);

    // Another wallet's workspace does not exist for this one, whatever the route.
    for (const [method, path] of [
      ["GET", hooks],
      ["POST", hooks],
      ["POST", `${hooks}/${endpoint}/test`],
      ["GET", `${hooks}/${endpoint}/deliveries`],
      ["POST", `${hooks}/${endpoint}/deliveries/${tested.body.deliveryId}/redeliver`],
      ["POST", `${hooks}/${endpoint}/rotate`],
      ["DELETE", `${hooks}/${endpoint}`],
    ] as const) {
      const answer = await call(stranger, method, path, method === "POST" ? { url: publicUrl } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe("NOT_FOUND");
    }
    expect(wakes).toBe(2);

    expect((await call(owner, "DELETE", `${hooks}/${endpoint}`)).status).toBe(204);
    expect((await call(owner, "GET", hooks)).body.endpoints).toEqual([]);
    expect((await call(owner, "DELETE", `${hooks}/${endpoint}`)).status).toBe(404);
    expect((await call(owner, "GET", `${hooks}/${endpoint}/deliveries`)).status).toBe(404);
  });

  it("refuses endpoints the policy forbids: plain http, private and loopback addresses, unknown event types", async () => {
    const app = await portalApp(store, { policy, signal: createOutboxSignal() });
    const owner = await signedIn(app, 8);
    const add = async (body: unknown) => {
      const created = await app.request("/portal/api/workspaces", {
        method: "POST",
        headers: { cookie: owner, "content-type": "application/json" },
        body: JSON.stringify({ name: "Refusals", code: `refuse-${randomBytes(4).toString("hex")}` }),
      });
      const { workspace } = (await created.json()) as { workspace: { id: string } };
      const answer = await app.request(`/portal/api/workspaces/${workspace.id}/webhooks`, {
        method: "POST",
        headers: { cookie: owner, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const listed = await app.request(`/portal/api/workspaces/${workspace.id}/webhooks`, {
        headers: { cookie: owner },
      });
      expect(((await listed.json()) as { endpoints: unknown[] }).endpoints).toEqual([]);
      return { status: answer.status, body: (await answer.json()) as { error: { issues: unknown[] } } };
    };
    const cases: [unknown, RegExp][] = [
      [{ url: "http://93.184.215.14/hooks" }, /an https:\/\/ URL/],
      [{ url: "https://10.0.0.1/hooks" }, /private or loopback/],
      [{ url: "https://127.0.0.1:8443/hooks" }, /private or loopback/],
      [{ url: "https://[::1]/hooks" }, /private or loopback/],
      [{ url: "https://localhost/hooks" }, /private or loopback/],
      [{ url: "https://user:pw@93.184.215.14/hooks" }, /credentials/],
      [{ url: publicUrl, eventTypes: ["settlement.paid"] }, /one of settlement\.confirming/],
    ];
    for (const [body, why] of cases) {
      const answer = await add(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body.error.issues), JSON.stringify(body)).toMatch(why);
    }
  });
});
