import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { lookupToken, starterTokens, type TokenRecord } from "../../../quote/token-catalog.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { BuilderTokensQuerySchema, BuilderTokensSchema } from "../../schemas/builder-tokens.ts";
import { toTransferFeeResponse } from "../transfer-fee-response.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** `GET /api/v2/builders/tokens` (scope `tokens`, drawing on the tokens quota): the starter list or one token. */
export function registerTokensRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/tokens",
    tags: ["Builder"],
    summary: "The starter token list, or one token's metadata and pool count",
    description: [
      "Scope `tokens`; shares the tokens quota. Without `address`: the deployment's starter list (metadata from the list; every token's transfer fee simulated in one call). With `address`: exactly one token, answered with 200 for any address; a starter token from the list, native ETH (the zero address) without a lookup, any other address from its ERC-20 `decimals`, `symbol` and `name` read on chain in one call (`metadata` null when they cannot be read).",
      "`pools` counts the indexed pools routing may use; 0 means the token cannot be routed.",
      "`transferFee` says whether the token takes a fee on transfer and how much (bps), simulated at the latest block: a synthetic holder funded by a storage override sends one whole token to a fresh address. Unmeasurable tokens report null figures with a `reason`, never a guess.",
    ].join("\n\n"),
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "tokens")] as const,
    request: { query: BuilderTokensQuerySchema },
    responses: {
      200: {
        description: "The starter list, or the one token asked for",
        content: { "application/json": { schema: BuilderTokensSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
    },
  });

  app.openapi(route, async (c) => {
    const { address } = c.req.valid("query");
    await chargeRequest(c);
    const catalog = {
      client: deps.client,
      tokens: deps.deployment.tokens,
      index: deps.index,
      transferFees: deps.transferFees,
    };
    const tokens: TokenRecord[] = address
      ? [await lookupToken(catalog, address as Address)]
      : await starterTokens(catalog);
    return c.json(
      {
        tokens: tokens.map((token) => ({ ...token, transferFee: toTransferFeeResponse(token.transferFee) })),
      },
      200,
    );
  });
}
