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
      description: "Serving, but the node does not answer (within 2 s)",
      content: { "application/json": { schema: HealthSchema } },
    },
  },
});

/** How long health waits for the node: under the 2-5 s a load balancer's probe usually allows. */
const HEALTH_DEADLINE_MS = 2_000;

/**
 * `GET /healthz` on both hosts: 200 while the node answers, 503 (still JSON) when it does not, or not
 * within {@link HEALTH_DEADLINE_MS}, so a probe sees a 503 and never its own timeout.
 */
export function registerHealthRoute(
  app: OpenAPIHono,
  latestBlock: () => Promise<bigint>,
  deadlineMs = HEALTH_DEADLINE_MS,
): void {
  app.openapi(healthRoute, async (c) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the node did not answer in time")), deadlineMs);
    });
    try {
      const block = await Promise.race([latestBlock(), late]);
      return c.json({ status: "ok" as const, chainId: CHAIN_ID, block: block.toString() }, 200);
    } catch {
      return c.json({ status: "degraded" as const, chainId: CHAIN_ID, block: null }, 503);
    } finally {
      clearTimeout(timer);
    }
  });
}
