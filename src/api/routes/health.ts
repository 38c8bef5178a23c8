import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";

const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    chainId: z.literal(CHAIN_ID),
    block: z
      .string()
      .nullable()
      .openapi({ description: "Latest block the node reports; null when unreachable." }),
  })
  .openapi("Health");

const healthRoute = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["Operations"],
  summary: "Liveness and chain reachability",
  responses: {
    200: {
      description: "Serving, and the node answers",
      content: { "application/json": { schema: HealthSchema } },
    },
    503: {
      description: "Serving, but the node does not answer",
      content: { "application/json": { schema: HealthSchema } },
    },
  },
});

/** `GET /healthz` on both hosts: 200 while the node answers, 503 (still JSON) when it does not. */
export function registerHealthRoute(app: OpenAPIHono, latestBlock: () => Promise<bigint>): void {
  app.openapi(healthRoute, async (c) => {
    try {
      const block = await latestBlock();
      return c.json({ status: "ok" as const, chainId: CHAIN_ID, block: block.toString() }, 200);
    } catch {
      return c.json({ status: "degraded" as const, chainId: CHAIN_ID, block: null }, 503);
    }
  });
}
