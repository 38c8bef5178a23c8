import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { readRegistryBuilder } from "../../../builders/registry-profile.ts";
import { invalidInput, JunctionError } from "../../../errors/junction-error.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { BuilderProfileQuerySchema, BuilderProfileSchema } from "../../schemas/builder-profile.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** `GET /api/v2/builders/profile` (scope `tokens`, drawing on the tokens quota): on-chain builder lookup. */
export function registerProfileRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/profile",
    tags: ["Builder"],
    summary: "A builder's profile, read from the on-chain registry",
    description: [
      "Scope `tokens`; shares the tokens quota. Reads the BuilderRegistry at the latest block (number and hash pinned first; after reading, the block at that number must still carry the pinned hash, else the read is retried on a fresh block). No local-database fallback.",
      "Suspended builders are readable (`enabled: false`). An unknown code, including a builder ID assigned in a workspace but not yet registered on chain, is 404 BUILDER_NOT_FOUND; an uncommissioned registry is 503 REGISTRY_UNCOMMISSIONED.",
    ].join("\n\n"),
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "tokens")] as const,
    request: { query: BuilderProfileQuerySchema },
    responses: {
      200: {
        description: "The builder's registry profile",
        content: { "application/json": { schema: BuilderProfileSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      400: errorResponse(
        "INVALID_REQUEST: an invalid or unknown query parameter, or no code and none on the key's workspace",
      ),
      404: errorResponse("BUILDER_NOT_FOUND: no builder is registered on chain under this code"),
      503: errorResponse(
        "REGISTRY_UNCOMMISSIONED (governance has not commissioned the registry) or UPSTREAM_UNAVAILABLE (the chain node did not answer)",
      ),
    },
  });

  app.openapi(route, async (c) => {
    const code = c.req.valid("query").code ?? c.get("principal").builderCode;
    if (!code) throw invalidInput("code", "required: the key's workspace has no builder code");
    await chargeRequest(c);
    const read = await readRegistryBuilder(deps.client, deps.deployment.contracts.builderRegistry, code);
    if (!read.commissioned)
      throw new JunctionError("REGISTRY_UNCOMMISSIONED", "the builder registry is not commissioned");
    const builder = read.builder;
    if (!builder)
      throw new JunctionError("BUILDER_NOT_FOUND", `no builder is registered on chain under ${code}`);
    return c.json(
      {
        builder: {
          code: builder.code,
          owner: builder.owner,
          pendingOwner: builder.pendingOwner,
          recipient: builder.recipient,
          builderFeeBps: builder.builderFeeBps,
          maxBuilderFeeBps: builder.maxBuilderFeeBps,
          routeFeeBps: builder.routeFeeBps,
          enabled: builder.enabled,
          version: builder.version,
          policySource: "onchain" as const,
          registry: read.registry,
          policyBlock: read.block.number.toString(),
          policyBlockHash: read.block.hash,
        },
      },
      200,
    );
  });
}
