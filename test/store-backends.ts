import { createStore, type Store } from "../src/store/create-store.ts";

/**
 * The store backends a test runs on: embedded PGlite always, and the Postgres server at DATABASE_URL when
 * one is configured (CI starts one and sets it). For `describe.each`.
 */
export function storeBackends(): [string, () => Promise<Store>][] {
  const backends: [string, () => Promise<Store>][] = [["pglite", () => createStore({ dataDir: null })]];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) backends.push(["postgres", () => createStore({ databaseUrl, dataDir: null })]);
  return backends;
}
