import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThrowawayStore } from "../../src/store/throwaway-store.ts";
import { startTcpProxy, type TcpProxy } from "../tcp-proxy.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * `junction start` on a Postgres server reached through a proxy that can lose it: readiness must follow
 * the database, since every keyed endpoint answers 503 while it is away (docs/rules.md, ours: shutdown).
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("readiness follows the database", () => {
  let database: Awaited<ReturnType<typeof createThrowawayStore>>;
  let proxy: TcpProxy;
  let spawned: SpawnedService;

  beforeAll(async () => {
    database = await createThrowawayStore(databaseUrl!, "junction_test");
    const server = new URL(database.url);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    spawned = await spawnService({ DATABASE_URL: viaProxy.toString() });
  });
  afterAll(async () => {
    spawned?.kill();
    await proxy?.close();
    await database?.close();
  });

  const readiness = async () => {
    const response = await fetch(`${spawned.baseUrl}/readyz`);
    return { status: response.status, body: await response.json() };
  };
  /** Probes until readiness answers `status` (an answer is reused for up to a second). */
  const readinessBecomes = async (status: number) => {
    let answer = await readiness();
    for (let i = 0; i < 100 && answer.status !== status; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await readiness();
    }
    return answer;
  };
  const usage = () =>
    fetch(`${spawned.baseUrl}/api/v2/builders/usage`, {
      headers: { "x-api-key": spawned.manifest().demoWorkspace!.keys.all },
    });

  it("answers 503 database-unavailable while the database is away, and ready once it answers again", async () => {
    expect(await readiness()).toEqual({ status: 200, body: { status: "ready", nodeLacks: [] } });
    expect((await usage()).status).toBe(200);

    proxy.cut();
    expect(await readinessBecomes(503)).toEqual({
      status: 503,
      body: { status: "not-ready", reason: "database-unavailable", nodeLacks: [] },
    });
    // What the balancer is spared: a keyed request here fails.
    expect((await usage()).status).toBe(503);
    // Liveness is the node's: the process itself is alive.
    expect((await fetch(`${spawned.baseUrl}/healthz`)).status).toBe(200);

    proxy.restore();
    expect(await readinessBecomes(200)).toEqual({ status: 200, body: { status: "ready", nodeLacks: [] } });
    expect((await usage()).status).toBe(200);
    expect(spawned.output()).toMatch(/the database does not answer: not ready/);
  });
});
