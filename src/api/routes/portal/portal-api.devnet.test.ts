import { OpenAPIHono } from "@hono/zod-openapi";
import { sql } from "kysely";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { storeBackends } from "../../../../test/store-backends.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { signInSite } from "../../../portal/sign-in-message.ts";
import type { Store } from "../../../store/create-store.ts";
import { sharedSecret } from "../../../store/repositories/service-secrets.ts";
import type { Db } from "../../../store/schema.ts";
import { handleError } from "../../errors.ts";
import { registerPortalApi } from "./portal-api.ts";

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
async function portalApp(store: Store): Promise<OpenAPIHono> {
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
  });
  return app;
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
