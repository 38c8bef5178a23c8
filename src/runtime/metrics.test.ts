import { Writable } from "node:stream";
import { z } from "@hono/zod-openapi";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createApp } from "../api/create-app.ts";
import type { RequestRecord } from "../api/observe.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { accessLog, createMetrics, observers } from "./metrics.ts";

/** An app with one route of each kind the service has: a parameterised GET, a validated query, a failure. */
function harness() {
  const records: RequestRecord[] = [];
  const lines: Record<string, unknown>[] = [];
  const logged: { err: unknown; requestId?: string }[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const metrics = createMetrics({
    indexBlock: () => 1234n,
    indexAgeMs: () => 3_000,
    indexLagBlocks: () => 4n,
    isIndexer: () => true,
  });
  const app = createApp((err, requestId) => logged.push({ err, ...(requestId ? { requestId } : {}) }), {
    observer: observers((record) => records.push(record), metrics.observe("base"), accessLog(logger, "base")),
  });
  app.get("/things/:id", (c) => c.json({ id: c.req.param("id") }));
  app.openapi(
    {
      method: "get",
      path: "/limited",
      request: { query: z.object({ n: z.string().regex(/^[0-9]+$/) }) },
      responses: { 200: { description: "ok" } },
    } as never,
    (() => {
      throw new JunctionError("QUOTA_EXCEEDED", "spent", { retryAfterSeconds: 7 });
    }) as never,
  );
  app.get("/broken", () => {
    throw new Error("a bug with /secret/path in it");
  });
  return { app, records, lines, logged, metrics };
}

describe("request ids, access log and metrics", () => {
  it("gives every response a trace id, the one sent or a fresh one, errors included", async () => {
    const { app, records } = harness();
    const sent = await app.request("/things/7", { headers: { "x-request-id": "trace-1:a.b_c" } });
    expect(sent.headers.get("x-request-id")).toBe("trace-1:a.b_c");
    const generated = await app.request("/nowhere");
    expect(generated.status).toBe(404);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // A malformed id is refused (nothing unbounded is logged or echoed) and the answer carries a fresh one.
    const malformed = await app.request("/things/7", { headers: { "x-request-id": "x".repeat(129) } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(records.map((r) => r.requestId)).toEqual([
      "trace-1:a.b_c",
      generated.headers.get("x-request-id"),
      malformed.headers.get("x-request-id"),
    ]);
  });

  it("labels requests by route pattern and error code, never by the raw path", async () => {
    const { app, records } = harness();
    await app.request("/things/1");
    await app.request("/things/2");
    await app.request("/limited?n=1");
    await app.request("/limited?n=x");
    await app.request(`/${"z".repeat(300)}`);
    await app.request("/broken");
    expect(records.map(({ route, status, code }) => ({ route, status, code }))).toEqual([
      { route: "/things/:id", status: 200, code: undefined },
      { route: "/things/:id", status: 200, code: undefined },
      { route: "/limited", status: 429, code: "QUOTA_EXCEEDED" },
      { route: "/limited", status: 400, code: "INVALID_REQUEST" },
      { route: "unmatched", status: 404, code: "NOT_FOUND" },
      { route: "/broken", status: 500, code: "INTERNAL" },
    ]);
  });

  it("logs one line per request with its id, and the unexpected error with the same id", async () => {
    const { app, lines, logged } = harness();
    const response = await app.request("/broken", { headers: { "x-request-id": "req-42" } });
    expect(lines).toEqual([
      expect.objectContaining({
        msg: "request",
        requestId: "req-42",
        host: "base",
        method: "GET",
        route: "/broken",
        status: 500,
        code: "INTERNAL",
      }),
    ]);
    expect(logged).toEqual([{ err: expect.any(Error), requestId: "req-42" }]);
    expect(await response.text()).not.toContain("secret");
  });

  it("exposes counters, latencies, index gauges and process metrics to a Prometheus scraper", async () => {
    const { app, metrics } = harness();
    await app.request("/things/1");
    await app.request("/limited?n=1");
    await app.request("/limited?n=1");
    metrics.rpc("eth_call")("ok");
    metrics.rpc("eth_call")("error");
    metrics.rpc("eth_call")("ok");
    const { contentType, body } = await metrics.scrape();
    expect(body).toContain('junction_rpc_requests_total{method="eth_call",outcome="ok"} 2');
    expect(body).toContain('junction_rpc_requests_total{method="eth_call",outcome="error"} 1');
    expect(body).toContain('junction_rpc_request_duration_seconds_count{method="eth_call"} 3');
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain(
      'junction_http_requests_total{host="base",method="GET",route="/things/:id",status="200",code=""} 1',
    );
    expect(body).toContain(
      'junction_http_requests_total{host="base",method="GET",route="/limited",status="429",code="QUOTA_EXCEEDED"} 2',
    );
    expect(body).toMatch(/junction_http_request_duration_seconds_count\{[^}]*route="\/limited"[^}]*\} 2/);
    expect(body).toContain("junction_pool_index_block 1234");
    expect(body).toContain("junction_pool_index_sync_age_seconds 3");
    expect(body).toContain("junction_pool_index_lag_blocks 4");
    expect(body).toMatch(/junction_process_resident_memory_bytes \d+/);
  });
});
