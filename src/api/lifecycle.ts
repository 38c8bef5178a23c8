import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { JunctionError } from "../errors/junction-error.ts";

/** Why a process is not ready for traffic. */
export type NotReadyReason = "stopping" | "database-unavailable" | "index-stale";

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

/**
 * Where the process is in its life, as the listeners need it. Stopping has two phases (docs/rules.md, ours:
 * shutdown): `leaving` (not ready, still serving, so the load balancer sees it go), then `closing`.
 */
export type Lifecycle = {
  /** True once the process has been told to stop: not ready, and each answer closes its connection. */
  leaving: () => boolean;
  /** True once the drain period is over: new requests are refused while in-flight ones finish. */
  closing: () => boolean;
  /** Whether a load balancer should send this process traffic. */
  readiness: () => Readiness | Promise<Readiness>;
  /** What the node lacks of what Junction uses (runtime/node-features.ts); none known when absent. */
  nodeLacks?: () => string[];
};

/** Probes and scrapes stay answered while closing: the load balancer must see the process leave. */
const ALWAYS_ANSWERED = new Set(["/healthz", "/readyz", "/metrics"]);

/** Seconds a client should wait before retrying elsewhere or here once restarted. */
const CLOSING_RETRY_AFTER_SECONDS = 1;

/**
 * Answers as the process's phase requires: while it is leaving, every answer carries `Connection: close`
 * (a keep-alive client reconnects through the load balancer, which by then routes elsewhere); once it is
 * closing, new requests are refused (503 SHUTTING_DOWN, `Retry-After`, `Connection: close`).
 */
export function answerWhileStopping(lifecycle: Pick<Lifecycle, "leaving" | "closing">): MiddlewareHandler {
  return async (c, next) => {
    if (lifecycle.closing() && !ALWAYS_ANSWERED.has(c.req.path)) {
      c.header("Connection", "close");
      throw new JunctionError("SHUTTING_DOWN", "this process is shutting down; retry shortly", {
        retryAfterSeconds: CLOSING_RETRY_AFTER_SECONDS,
      });
    }
    await next();
    if (lifecycle.leaving()) c.header("Connection", "close");
  };
}

const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "not-ready"]),
    reason: z.enum(["stopping", "database-unavailable", "index-stale"]).optional().openapi({
      description:
        "`stopping`: the process is stopping (it still serves for a drain period, then closes); `database-unavailable`: the database does not answer (keyed endpoints would answer 503); `index-stale`: the pool index has not followed the chain lately (quotes would miss new pools).",
    }),
    nodeLacks: z.array(z.string()).openapi({
      description:
        'What the node lacks of what Junction uses, learned at start and since: `eth_simulateV1`, `eth_gasPrice`, `finalized`, `websocket`, or any other method the node answered it does not have. Never a reason to be unready: each has a fallback (docs/operating.md, "Choosing a node").',
      example: ["websocket"],
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
  app.openapi(readinessRoute, async (c) => {
    const state = await lifecycle.readiness();
    const nodeLacks = lifecycle.nodeLacks?.() ?? [];
    return state.ready
      ? c.json({ status: "ready" as const, nodeLacks }, 200)
      : c.json({ status: "not-ready" as const, reason: state.reason, nodeLacks }, 503);
  });
}
