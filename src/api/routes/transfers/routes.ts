import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Db } from "../../../store/schema.ts";
import { estimateTransfer, type TransferEstimator } from "../../../transfers/estimate-transfer.ts";
import { TRANSFER_FEE_DISCLOSURE } from "../../../transfers/fees.ts";
import { TRANSFER_LIMITS } from "../../../transfers/limits.ts";
import { checkTransferRequest } from "../../../transfers/transfer-request.ts";
import { errorResponse } from "../../schemas/error.ts";
import { TransferEstimateSchema, TransferRoutesQuerySchema } from "../../schemas/transfer-estimate.ts";
import { chargeTransferRequest, TRANSFER_KEY_HEADER, transferAccess } from "../../transfer-access.ts";

export type TransferApiDeps = { db: Db; estimator: TransferEstimator };

const EXAMPLE = {
  routeFeeBps: 20,
  inputAsset: "ETH:1",
  outputAsset: "STABLE:8453",
  inputAmount: "1.5",
  routeFeeAmount: "0.003",
  providerInputAmount: "1.497",
  estimatedOutput: "4478.8725",
  status: "quoted",
  selectedProvider: "bridge-a",
  expiresAt: 1764000030000,
  liveEnabled: false,
  delaySeconds: 0,
  supportedDelaysSeconds: [0],
  fees: {
    directRouteFeeBps: 20,
    partnerCommissionPolicy: "retained-provider-paid",
    partnerCommissionIncludedInEstimate: true,
    partnerCommissionBps: 10,
    partnerCommissionRateVerified: false,
    disclosure: TRANSFER_FEE_DISCLOSURE,
    collectionEnabled: false,
    treasury: "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
  },
  routes: [
    {
      provider: "bridge-a",
      status: "quoted",
      reason: null,
      estimatedOutput: "4478.8725",
      providerFees: [
        { name: "bridge-fee", amount: "0.0022455", asset: "ETH" },
        { name: "partner-commission", amount: "0.001497", asset: "ETH" },
        { name: "relayer-gas-fee", amount: "0.0003", asset: "ETH" },
      ],
      partnerCommissionBps: 10,
      providerEstimatedSeconds: 180,
      launchBlockers: ["transfer-creation-disabled", "fee-collection-disabled", "launch-evidence-missing"],
      liveEnabled: false,
    },
    {
      provider: "bridge-b",
      status: "unavailable",
      reason: "unsupported-pair",
      estimatedOutput: null,
      providerFees: [],
      partnerCommissionBps: null,
      providerEstimatedSeconds: null,
      launchBlockers: ["transfer-creation-disabled", "fee-collection-disabled", "launch-evidence-missing"],
      liveEnabled: false,
    },
  ],
} as const;

/** The OpenAPI security scheme of transfer estimates: a customer key in `X-Service-Api-Key`. */
function registerTransferSecurity(app: OpenAPIHono): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "TransferKey", {
    type: "apiKey",
    in: "header",
    name: TRANSFER_KEY_HEADER,
    description:
      "A transfer customer key (`jtk_...`) issued out of band by the operator (`junction transfer key create`), with the `estimates` scope; server-side only, separate from any provider credential.",
  });
}

/**
 * `GET /api/transfers/v1/routes` (docs/rules.md, transfer estimate rules 1-6, auth rule 8, versioning 2):
 * an estimate per bridge provider, the best one shown, with the full fee disclosure. Estimates only:
 * nothing creates, funds or deposits a transfer.
 */
export function registerTransferRoutes(app: OpenAPIHono, deps: TransferApiDeps): void {
  registerTransferSecurity(app);
  const route = createRoute({
    method: "get",
    path: "/api/transfers/v1/routes",
    tags: ["Transfer estimates"],
    summary: "Transfer (bridge) estimate between ETH and the stable asset across chains",
    description: `Authenticated with a customer key in \`${TRANSFER_KEY_HEADER}\` (scope \`estimates\`); ${TRANSFER_LIMITS.ratePerKeyPerMinute} estimates per key per minute (429 RATE_LIMITED with Retry-After past it; a refused request spends nothing). Reserves the 20 bps direct fee from the gross input, asks every configured bridge provider in parallel (each within ${TRANSFER_LIMITS.providerDeadlineMs / 1000} s) for the rest, and answers every route: quoted, or unavailable with a closed reason. A provider that is slow, down or answers garbage only makes its own route unavailable; the answer is still 200. **An estimate is not a guaranteed payout**: it floats with the providers' prices and fees until a transfer is made, there is no fixed delivery time and no anonymity guarantee, and transfer creation, funding and deposits are disabled (\`/api/v2/capabilities\`: \`transferCreation: false\`).`,
    security: [{ TransferKey: [] }],
    middleware: [transferAccess(deps.db, "estimates")] as const,
    request: { query: TransferRoutesQuerySchema },
    responses: {
      200: {
        description: "The estimate, `quoted` or `unavailable`",
        content: { "application/json": { schema: TransferEstimateSchema, example: EXAMPLE } },
      },
      400: errorResponse(
        "INVALID_REQUEST: an unknown parameter, a malformed or unserved asset, the same asset twice, an amount off the pattern or with more fraction digits than its asset, a delay other than 0 (`issues` names them)",
      ),
      401: errorResponse(
        `UNAUTHORIZED: missing, malformed, unknown, expired or revoked ${TRANSFER_KEY_HEADER}`,
      ),
      403: errorResponse("FORBIDDEN: the key lacks the `estimates` scope"),
      429: errorResponse("RATE_LIMITED: the key's per-minute estimate rate is spent; honour Retry-After"),
      503: errorResponse("UPSTREAM_UNAVAILABLE: the chain node did not answer the treasury read"),
    },
  });
  app.openapi(route, async (c) => {
    const request = checkTransferRequest(deps.estimator.assets, c.req.valid("query"));
    await chargeTransferRequest(c);
    return c.json(await estimateTransfer(deps.estimator, request), 200);
  });
}
