import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { JunctionError } from "../errors/junction-error.ts";

/** Why a process is not ready for traffic. */
export type NotReadyReason = "stopping" | "index-stale";

/** Where the process is in its life, as the listeners need it. */
export type Lifecycle = {
  /** True once the process has begun to stop: new requests are refused while in-flight ones finish. */
  draining: () => boolean;
  /** Whether a load balancer should send this process traffic. */
  readiness: () => { ready: true } | { ready: false; reason: NotReadyReason };
};

/** Probes and scrapes stay answered while draining: the load balancer must see the process leave. */
const ALWAYS_ANSWERED = new Set(["/healthz", "/readyz", "/metrics"]);

/** Seconds a client should wait before retrying elsewhere or here once restarted. */
const DRAINING_RETRY_AFTER_SECONDS = 1;

/**
 * Refuses new requests once the process drains (503 SHUTTING_DOWN, `Retry-After`, `Connection: close` so
 * the client reconnects, through the load balancer, to a process that serves).
 */
export function refuseWhileDraining(draining: () => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (draining() && !ALWAYS_ANSWERED.has(c.req.path)) {
      c.header("Connection", "close");
      throw new JunctionError("SHUTTING_DOWN", "this process is shutting down; retry shortly", {
        retryAfterSeconds: DRAINING_RETRY_AFTER_SECONDS,
      });
    }
    await next();
  };
}

const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "not-ready"]),
    reason: z.enum(["stopping", "index-stale"]).optional().openapi({
      description:
        "`stopping`: the process is draining; `index-stale`: the pool index has not followed the chain lately (quotes would miss new pools).",
    }),
  })
  .openapi("Readiness");

const readinessRoute = createRoute({
  method: "get",
  path: "/readyz",
  tags: ["Operations"],
  summary: "Readiness for traffic (distinct from liveness, /healthz)",
  responses: {
    200: { description: "Send traffic here", content: { "application/json": { schema: ReadinessSchema } } },
    503: {
      description: "Do not send traffic here now",
      content: { "application/json": { schema: ReadinessSchema } },
    },
  },
});

/** `GET /readyz` on both hosts: what a load balancer should route by. */
export function registerReadinessRoute(app: OpenAPIHono, lifecycle: Lifecycle): void {
  app.openapi(readinessRoute, (c) => {
    const state = lifecycle.readiness();
    return state.ready
      ? c.json({ status: "ready" as const }, 200)
      : c.json({ status: "not-ready" as const, reason: state.reason }, 503);
  });
}
