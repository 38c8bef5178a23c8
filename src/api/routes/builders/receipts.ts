import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Hex } from "viem";
import { verifyReceipt } from "../../../builders/receipts.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { ReceiptRequestSchema, ReceiptResponseSchema } from "../../schemas/builder-receipt.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BODY_LIMIT_RESPONSES, BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** `POST /api/v2/builders/receipts` (scope `receipts`, shares its quota with history). */
export function registerReceiptRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "post",
    path: "/api/v2/builders/receipts",
    tags: ["Builder"],
    summary: "Verify a swap's finalized attribution",
    description:
      "Scope `receipts`; use the same key that prepared the swap. Answers `confirming` until the transaction's block is finalized, then checks the block is canonical, the transaction succeeded and the collector's settlement event carries this quote, builder and key, and records the settlement as `finalized`. Repeat the call until it is finalized.",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "receipts")] as const,
    request: { body: { required: true, content: { "application/json": { schema: ReceiptRequestSchema } } } },
    responses: {
      200: {
        description: "The verification status",
        content: { "application/json": { schema: ReceiptResponseSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      ...BODY_LIMIT_RESPONSES,
      400: errorResponse(
        "INVALID_REQUEST, or RECEIPT_MISMATCH: the transaction reverted, or settles another quote, builder or key",
      ),
      404: errorResponse("PLAN_NOT_FOUND: no quote with this id for this key"),
    },
  });
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const body = c.req.valid("json");
    await chargeRequest(c);
    const verified = await verifyReceipt(
      { db: deps.db, client: deps.client, contracts: deps.deployment.contracts },
      principal,
      {
        quoteId: body.quoteId,
        hash: body.hash as Hex,
        ...(body.builderCode ? { builderCode: body.builderCode } : {}),
      },
    );
    return c.json(
      {
        status: verified.status,
        hash: verified.hash,
        quoteId: verified.quoteId,
        builderCode: verified.builderCode,
        tokenOut: verified.tokenOut,
        routeFee: verified.routeFee.toString(),
        builderFee: verified.builderFee.toString(),
        amountOut: verified.amountOut.toString(),
        blockNumber: verified.blockNumber === null ? null : verified.blockNumber.toString(),
        blockHash: verified.blockHash,
        logIndex: verified.logIndex,
      },
      200,
    );
  });
}
