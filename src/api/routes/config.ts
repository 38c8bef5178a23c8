import type { z } from "@hono/zod-openapi";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { BUILDER_LIMITS, PARTNER_LIMITS } from "../../builders/limits.ts";
import type { Contracts } from "../../config/deployment.ts";
import type { ProviderStatus } from "../../providers/provider-ids.ts";
import { FEE_DISCLOSURE, MAX_SERVICE_FEE_BPS } from "../../quote/fee-disclosure.ts";
import { QUOTE_LIMITS } from "../../quote/limits.ts";
import { CAPABILITIES } from "../../service/capabilities.ts";
import { TRANSFER_ROUTE_FEE_BPS } from "../../transfers/fees.ts";
import { CapabilitiesSchema, ConfigResponseSchema } from "../schemas/config.ts";

export type ConfigDeps = { contracts: Contracts; providers: () => ProviderStatus[] };

const configRoute = createRoute({
  method: "get",
  path: "/api/v2/config",
  tags: ["Public"],
  summary: "Public service configuration",
  description:
    "Keyless. Chain id, contract addresses, enabled providers, the fee disclosure, every published limit and the capability flags a client checks before offering an action.",
  responses: {
    200: {
      description: "The configuration",
      content: { "application/json": { schema: ConfigResponseSchema } },
    },
  },
});

const capabilitiesRoute = createRoute({
  method: "get",
  path: "/api/v2/capabilities",
  tags: ["Public"],
  summary: "Capability flags",
  description: "Keyless. Check `deposits` before showing a deposit action; zaps are not enabled.",
  responses: {
    200: { description: "Capability flags", content: { "application/json": { schema: CapabilitiesSchema } } },
  },
});

/** `GET /api/v2/config` and `GET /api/v2/capabilities` (docs/rules.md, public rules 2-3). */
export function registerConfigRoutes(app: OpenAPIHono, deps: ConfigDeps): void {
  app.openapi(configRoute, (c) => {
    const body: z.infer<typeof ConfigResponseSchema> = {
      chainId: 4663,
      apiVersion: "2.15.0",
      nativeToken: { address: "0x0000000000000000000000000000000000000000", symbol: "ETH", decimals: 18 },
      contracts: deps.contracts,
      providers: deps.providers(),
      fees: {
        maxServiceFeeBps: MAX_SERVICE_FEE_BPS,
        serviceFeeModel: "pair-dependent-output-fee",
        thirdPartyQuotesAddNoFee: true,
        transferRouteFeeBps: TRANSFER_ROUTE_FEE_BPS,
        disclosure: [...FEE_DISCLOSURE],
      },
      limits: { quote: { ...QUOTE_LIMITS }, builder: { ...BUILDER_LIMITS }, partner: { ...PARTNER_LIMITS } },
      capabilities: CAPABILITIES,
    };
    return c.json(body, 200);
  });
  app.openapi(capabilitiesRoute, (c) => c.json(CAPABILITIES, 200));
}
