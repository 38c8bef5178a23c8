import { sql } from "kysely";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { startTcpProxy, type TcpProxy } from "../../test/tcp-proxy.ts";
import { createStore, type Store } from "../store/create-store.ts";
import { createThrowawayStore } from "../store/throwaway-store.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * The builder API on a Postgres server as several processes share it: the server going away mid-traffic
 * (each request a 503 with a closed reason, never a 500, recovery without a restart), and two processes
 * racing one Idempotency-Key (one preparation). Each process is its own connection pool on one database.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("builder API on a Postgres server shared by two processes", () => {
  let devnet: TestDevnet;
  let database: Store & { url: string };
  let proxy: TcpProxy;
  let first: BuilderTestApi;
  let second: BuilderTestApi;
  let key: string;

  beforeAll(async () => {
    devnet = await startTestDevnet();
    database = await createThrowawayStore(databaseUrl!, "junction_test");
    const server = new URL(database.url);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    first = await createBuilderTestApi(devnet, {
      store: await createStore({ databaseUrl: viaProxy.toString(), dataDir: null }),
    });
    second = await createBuilderTestApi(devnet, {
      store: await createStore({ databaseUrl: database.url, dataDir: null }),
    });
    const workspace = await first.workspace({
      code: devnet.manifest.junction.demoBuilder.code,
      plan: "growth",
    });
    key = await first.key(workspace.id, ["quote", "swap", "tokens"]);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await proxy?.close();
    await database?.close();
    await devnet?.dispose();
  });

  const usage = async (api: BuilderTestApi) => {
    const response = await api.call("GET", "/api/v2/builders/usage", { key });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it("answers 503 database-unavailable while the server is away and recovers by itself", async () => {
    expect((await usage(first)).status).toBe(200);

    proxy.cut();
    const during = await Promise.all([usage(first), usage(first), usage(first)]);
    for (const response of during) {
      expect(response.status).toBe(503);
      expect(JSON.parse(response.text)).toEqual({
        error: {
          code: "UPSTREAM_UNAVAILABLE",
          reason: "database-unavailable",
          message: "the database did not answer; retry shortly",
        },
      });
      expect(response.headers.get("retry-after")).toBe("2");
    }
    // The other process, on its own connections, never noticed.
    expect((await usage(second)).status).toBe(200);

    proxy.restore();
    const after = await usage(first);
    expect(after.status).toBe(200);
    // Only the served requests counted: the first call, the other process's and this one.
    expect(JSON.parse(after.text).usage.tokens).toBe(3);
  });

  it("prepares a swap once when two processes race the same Idempotency-Key", async () => {
    const quote = await first.call("GET", "/api/v2/builders/quote", {
      key,
      query: {
        tokenIn: devnet.manifest.contracts.weth9,
        tokenOut: devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address,
        amountIn: parseEther("1").toString(),
        payer: devnet.manifest.accounts[6]!.address,
      },
    });
    expect(quote.status).toBe(200);
    const { quoteId } = (await quote.json()) as Json;
    const prepare = (api: BuilderTestApi) =>
      api.call("POST", "/api/v2/builders/swaps", {
        key,
        body: { quoteId },
        headers: { "idempotency-key": "race-0001" },
      });
    const raced = await Promise.all([prepare(first), prepare(second), prepare(first), prepare(second)]);
    const bodies = await Promise.all(
      raced.map(async (r) => ({ status: r.status, body: (await r.json()) as Json })),
    );
    // One preparation ran; the others replayed its result or were told it is still in progress.
    const ready = bodies.filter((b) => b.status === 200);
    expect(ready.length).toBeGreaterThanOrEqual(1);
    for (const other of bodies.filter((b) => b.status !== 200)) {
      expect(other).toMatchObject({ status: 409, body: { error: { code: "PLAN_NOT_READY" } } });
    }
    for (const body of ready) expect(body.body).toEqual(ready[0]!.body);
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from swap_preparations where idempotency_key = 'race-0001'`.execute(database.db);
    expect(Number(rows[0]!.n)).toBe(1);
    const saved = await second.call("GET", "/api/v2/builders/swaps/race-0001", { key });
    expect(await saved.json()).toMatchObject({ status: "ready", swap: ready[0]!.body });
  });
});
