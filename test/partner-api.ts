import type { OpenAPIHono } from "@hono/zod-openapi";
import { createPartnerApp } from "../src/api/partner-app.ts";
import type { PartnerApiDeps } from "../src/api/routes/partner/partner-api-deps.ts";
import { partnerKeys } from "../src/auth/partner-keys.ts";
import type { createAdmission } from "../src/quote/admission.ts";
import { createStore, type Store } from "../src/store/create-store.ts";
import type { TestDevnet } from "./devnet.ts";
import { type TestQuotingProviders, testQuotingDeps } from "./quoting-deps.ts";

export type PartnerTestApi = {
  app: OpenAPIHono;
  deps: PartnerApiDeps;
  store: Store;
  /** Partner keys issued for the test: one with swap permission, one quote-only. */
  keys: { swap: { id: string; secret: string }; quote: { id: string; secret: string } };
  /** Calls the app in-process with a bearer key (default: the swap key; null: none). */
  get: (
    path: string,
    query: Record<string, string>,
    options?: { key?: string | null; headers?: Record<string, string> },
  ) => Promise<Response>;
  close: () => Promise<void>;
};

/**
 * The partner app on a test devnet and an in-memory PGlite store holding two partner keys: the same routes,
 * gate and deps the service mounts.
 */
export async function createPartnerTestApi(
  devnet: TestDevnet,
  options: {
    now?: () => number;
    admission?: ReturnType<typeof createAdmission>;
    providers?: TestQuotingProviders;
  } = {},
): Promise<PartnerTestApi> {
  const store = await createStore({ dataDir: null });
  const deps: PartnerApiDeps = await testQuotingDeps(devnet, store, options);
  const app = createPartnerApp({
    latestBlock: () => devnet.publicClient.getBlockNumber(),
    logError: (error) => {
      throw error;
    },
    partner: deps,
  });
  const [swap, quote] = await Promise.all([
    partnerKeys.issue(store.db, { name: "test swap", scopes: ["swap"] }),
    partnerKeys.issue(store.db, { name: "test quote", scopes: [] }),
  ]);
  const keys = { swap: { id: swap.id, secret: swap.secret }, quote: { id: quote.id, secret: quote.secret } };
  return {
    app,
    deps,
    store,
    keys,
    get(path, query, opts = {}) {
      const key = opts.key === undefined ? keys.swap.secret : opts.key;
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (key !== null) headers.authorization = `Bearer ${key}`;
      return Promise.resolve(app.request(`${path}?${new URLSearchParams(query)}`, { headers }));
    },
    close: () => store.close(),
  };
}
