import { createStore, type Store } from "../src/store/create-store.ts";
import { createThrowawayStore } from "../src/store/throwaway-store.ts";

/**
 * The store backends a test runs on: embedded PGlite always, and the Postgres server at DATABASE_URL when
 * one is configured (CI starts one and sets it). For `describe.each`. On the server each test file gets a
 * private database, dropped on close: the server is shared by every run and every checkout on the machine,
 * so a run must neither see nor leave migrations of another branch.
 */
export function storeBackends(): [string, () => Promise<Store>][] {
  const backends: [string, () => Promise<Store>][] = [["pglite", () => createStore({ dataDir: null })]];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) backends.push(["postgres", () => createThrowawayStore(databaseUrl, "junction_test")]);
  return backends;
}
