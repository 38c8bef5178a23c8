import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Hex } from "viem";
import { UNKNOWN_TRANSACTION_GRACE_SECONDS, verifyReceipt } from "../../../builders/receipts.ts";
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
    description: `Scope \`receipts\`; use the same key that prepared the swap. Answers \`confirming\` until the transaction's block is finalized, then checks the block is canonical, the transaction succeeded and the collector's settlement event carries this quote, builder and key, and records the settlement as \`finalized\`. Repeat the call until it is finalized. A hash the chain has not seen answers \`confirming\` while it could still settle the quote: until ${UNKNOWN_TRANSACTION_GRACE_SECONDS} s past the quote's deadline by the chain's clock, then 409 TRANSACTION_NOT_FOUND.`,
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
      409: errorResponse(
        `TRANSACTION_NOT_FOUND: the chain has no transaction with this hash and the quote's deadline passed more than ${UNKNOWN_TRANSACTION_GRACE_SECONDS} s ago by the chain's clock (its latest block's time): no transaction can settle this quote any more, so stop polling`,
      ),
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
