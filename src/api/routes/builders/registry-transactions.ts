import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { builderIdOf } from "../../../builders/builder-code.ts";
import { registryTransaction, simulateRegistryTransaction } from "../../../builders/registry-transactions.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { invalidInput, JunctionError } from "../../../errors/junction-error.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import {
  RegistryTransactionRequestSchema,
  RegistryTransactionResponseSchema,
} from "../../schemas/builder-registry-transaction.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BODY_LIMIT_RESPONSES, BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/**
 * `POST /api/v2/builders/registry-transactions` (scope `swap`; docs/rules.md, ours: registry transactions):
 * an unsigned BuilderRegistry transaction for the builder's wallet (register, set recipient, set fee,
 * transfer and accept ownership), simulated from the signer first. The first activation of a workspace is
 * started by the operator (`junction workspace activate`), since `swap` keys exist only once the ID is
 * active.
 */
export function registerRegistryTransactionRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "post",
    path: "/api/v2/builders/registry-transactions",
    tags: ["Builder"],
    summary: "Prepare an unsigned builder-registry transaction",
    description:
      "Scope `swap`. Builds the registry call for `action` and simulates it from `from` at the latest block: a change the registry would refuse (not the owner, fee above the cap, code taken...) is answered 400 UNSUPPORTED_TERMS naming the registry error, before anyone signs. Confirmed changes are picked up from registry events automatically.",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "swap")] as const,
    request: {
      body: { required: true, content: { "application/json": { schema: RegistryTransactionRequestSchema } } },
    },
    responses: {
      200: {
        description: "The unsigned, simulated transaction",
        content: { "application/json": { schema: RegistryTransactionResponseSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      ...BODY_LIMIT_RESPONSES,
      400: errorResponse(
        "INVALID_REQUEST, or UNSUPPORTED_TERMS: the registry would revert (its error is named)",
      ),
    },
  });
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const body = c.req.valid("json");
    const code = body.code ?? principal.builderCode;
    if (!code) throw invalidInput("code", "required: the workspace has no builder code");
    const registry = deps.deployment.contracts.builderRegistry;
    const tx = registryTransaction(registry, { ...body, code });
    const from = body.from as Address;
    await chargeRequest(c);
    const block = await deps.client.getBlockNumber({ cacheTime: 0 });
    const simulation = await simulateRegistryTransaction(deps.client, tx, from, block);
    if (!simulation.ok)
      throw new JunctionError("UNSUPPORTED_TERMS", `the registry would revert with ${simulation.error}`);
    return c.json(
      {
        action: body.action,
        code,
        builderId: builderIdOf(code),
        tx: {
          from,
          to: tx.to.toLowerCase() as Address,
          data: tx.data,
          value: "0" as const,
          chainId: CHAIN_ID,
        },
        simulatedAt: block.toString(),
      },
      200,
    );
  });
}
