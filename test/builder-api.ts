import { randomBytes, randomUUID } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createApp } from "../src/api/create-app.ts";
import type { BuilderApiDeps } from "../src/api/routes/builders/builder-api-deps.ts";
import { registerBuilderRoutes } from "../src/api/routes/builders/register-builder-routes.ts";
import { type BuilderScope, createBuilderKey, createWorkspace, markActivated } from "../src/auth/keys.ts";
import { createStore, type Store } from "../src/store/create-store.ts";
import { createThrowawayStore } from "../src/store/throwaway-store.ts";
import type { TestDevnet } from "./devnet.ts";
import { type TestQuotingProviders, testQuotingDeps } from "./quoting-deps.ts";

export type BuilderTestApi = {
  app: OpenAPIHono;
  store: Store;
  deps: BuilderApiDeps;
  /** A workspace with a fresh builder code (or `code`), activated unless told otherwise. */
  workspace: (options?: {
    code?: string;
    activated?: boolean;
    plan?: string;
  }) => Promise<{ id: string; code: string }>;
  /** A key for the workspace with these scopes; returns the secret to send in `x-api-key`. */
  key: (workspaceId: string, scopes: BuilderScope[]) => Promise<string>;
  /** Calls the app in-process, as an integrator would over HTTP. */
  call: (
    method: "GET" | "POST",
    path: string,
    options?: {
      key?: string;
      query?: Record<string, string>;
      body?: unknown;
      headers?: Record<string, string>;
    },
  ) => Promise<Response>;
  close: () => Promise<void>;
};

/**
 * The builder API on a test devnet and an in-memory PGlite store (or the Postgres server at DATABASE_URL
 * when `postgres` is set, or the given `store`, which `close` then closes): the same routes and deps the
 * service mounts.
 */
export async function createBuilderTestApi(
  devnet: TestDevnet,
  options: {
    postgres?: boolean;
    now?: () => number;
    store?: Store;
    client?: BuilderApiDeps["client"];
    providers?: TestQuotingProviders;
    /** Serve the event stream (`GET /api/v2/builders/events`) with these deps. */
    events?: BuilderApiDeps["events"];
  } = {},
): Promise<BuilderTestApi> {
  const store =
    options.store ??
    (options.postgres && process.env.DATABASE_URL
      ? await createThrowawayStore(process.env.DATABASE_URL, "junction_test")
      : await createStore({ dataDir: null }));
  const deps: BuilderApiDeps = {
    ...(await testQuotingDeps(devnet, store, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.client ? { client: options.client } : {}),
      ...(options.providers ? { providers: options.providers } : {}),
    })),
    cursorSecret: randomBytes(32),
    ...(options.events ? { events: options.events } : {}),
  };
  const app = createApp((error) => {
    throw error;
  });
  registerBuilderRoutes(app, deps);
  return {
    app,
    store,
    deps,
    async workspace(opts = {}) {
      const code = opts.code ?? `ws-${randomUUID().slice(0, 8)}`;
      const created = await createWorkspace(store.db, { name: code, builderCode: code });
      if (opts.plan)
        await store.db
          .updateTable("workspaces")
          .set({ plan: opts.plan })
          .where("id", "=", created.id)
          .execute();
      if (opts.activated ?? true) await markActivated(store.db, code, new Date());
      return { id: created.id, code };
    },
    async key(workspaceId, scopes) {
      return (await createBuilderKey(store.db, { workspaceId, name: "test", scopes })).secret;
    },
    call(method, path, opts = {}) {
      const url = opts.query ? `${path}?${new URLSearchParams(opts.query)}` : path;
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers["x-api-key"] = opts.key;
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      return Promise.resolve(
        app.request(url, {
          method,
          headers,
          ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
        }),
      );
    },
    close: () => store.close(),
  };
}
