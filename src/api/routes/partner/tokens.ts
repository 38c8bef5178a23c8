import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { lookupPartnerToken } from "../../../partners/partner-tokens.ts";
import { chargePartnerRequest, partnerAccess } from "../../partner-access.ts";
import { PartnerTokenSchema, PartnerTokensQuerySchema } from "../../schemas/partner-tokens.ts";
import { toTransferFeeResponse } from "../transfer-fee-response.ts";
import type { PartnerApiDeps } from "./partner-api-deps.ts";
import { PARTNER_ERROR_RESPONSES, PARTNER_SECURITY } from "./partner-openapi.ts";

/** `GET {partner_url}/tokens` (docs/rules.md, partner token rule 1): one token's metadata and pool count. */
export function registerPartnerTokensRoute(app: OpenAPIHono, deps: PartnerApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/tokens",
    tags: ["Partner"],
    summary: "One token's metadata and routable pool count",
    description:
      "Spends one of the key's 120 token lookups a minute once valid (429 RATE_LIMITED with Retry-After past it). Any address answers 200: a token on the deployment's list (`status: listed`), any other contract from its ERC-20 `decimals`, `symbol` and `name` read on chain (`onchain`; `metadata` null when they cannot be read, e.g. not a token), and the zero address (native ETH) with its fixed record (`native`, 18 decimals, never looked up). `pools` 0 means the token cannot be routed. `decimals` converts user input into raw `amount` units. `transferFee` says whether the token takes a fee on transfer and how much, simulated at the latest block (null figures with a `reason` when it cannot be measured, never a guess).",
    security: PARTNER_SECURITY,
    middleware: [partnerAccess(deps.db, "tokens")] as const,
    request: { query: PartnerTokensQuerySchema },
    responses: {
      200: { description: "The token", content: { "application/json": { schema: PartnerTokenSchema } } },
      ...PARTNER_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const { address } = c.req.valid("query");
    await chargePartnerRequest(c);
    const catalog = {
      client: deps.client,
      tokens: deps.deployment.tokens,
      index: deps.index,
      transferFees: deps.transferFees,
    };
    const token = await lookupPartnerToken(catalog, address as Address);
    return c.json({ ...token, transferFee: toTransferFeeResponse(token.transferFee) }, 200);
  });
}
