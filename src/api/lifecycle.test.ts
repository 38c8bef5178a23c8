import { describe, expect, it } from "vitest";
import { createApp } from "./create-app.ts";
import { type Lifecycle, registerReadinessRoute } from "./lifecycle.ts";
import { registerHealthRoute } from "./routes/health.ts";

describe("draining and readiness", () => {
  let leaving = false;
  let closing = false;
  let databaseUp = true;
  let indexFresh = true;
  const lifecycle: Lifecycle = {
    leaving: () => leaving,
    closing: () => closing,
    nodeLacks: () => ["websocket"],
    readiness: async () =>
      leaving
        ? { ready: false, reason: "stopping" }
        : !databaseUp
          ? { ready: false, reason: "database-unavailable" }
          : indexFresh
            ? { ready: true }
            : { ready: false, reason: "index-stale" },
  };
  const app = createApp(() => {}, { lifecycle });
  registerHealthRoute(app, async () => 7n);
  registerReadinessRoute(app, lifecycle);
  app.get("/work", (c) => c.json({ ok: true }));

  it("is ready while serving and says why it is not", async () => {
    expect(await (await app.request("/readyz")).json()).toEqual({
      status: "ready",
      nodeLacks: ["websocket"],
    });
    indexFresh = false;
    const stale = await app.request("/readyz");
    expect(stale.status).toBe(503);
    expect(await stale.json()).toEqual({
      status: "not-ready",
      reason: "index-stale",
      nodeLacks: ["websocket"],
    });
    databaseUp = false;
    expect(await (await app.request("/readyz")).json()).toEqual({
      status: "not-ready",
      reason: "database-unavailable",
      nodeLacks: ["websocket"],
    });
    databaseUp = true;
    indexFresh = true;
  });

  it("keeps serving while leaving, closing each connection, and is not ready", async () => {
    const before = await app.request("/work");
    expect(before.headers.get("connection")).toBeNull();
    leaving = true;
    const served = await app.request("/work");
    expect(served.status).toBe(200);
    expect(served.headers.get("connection")).toBe("close");
    const readiness = await app.request("/readyz");
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({
      status: "not-ready",
      reason: "stopping",
      nodeLacks: ["websocket"],
    });
  });

  it("refuses new work once closing, with Retry-After and Connection: close, but still answers probes", async () => {
    leaving = true;
    closing = true;
    const refused = await app.request("/work");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("connection")).toBe("close");
    expect(await refused.json()).toEqual({
      error: { code: "SHUTTING_DOWN", message: "this process is shutting down; retry shortly" },
    });
    expect(await (await app.request("/readyz")).json()).toEqual({
      status: "not-ready",
      reason: "stopping",
      nodeLacks: ["websocket"],
    });
    expect((await app.request("/healthz")).status).toBe(200);
  });
});
