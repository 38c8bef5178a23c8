import { z } from "@hono/zod-openapi";
import { ChainIdField } from "./chain-id.ts";
import { Address, BuilderCode, Hash32, Uint } from "./common-patterns.ts";

export const ReceiptRequestSchema = z
  .strictObject({
    chainId: ChainIdField.optional(),
    quoteId: Hash32.openapi({ description: "The builder quote the transaction executed." }),
    hash: Hash32.openapi({ description: "The transaction hash." }),
    builderCode: BuilderCode.optional().openapi({
      description:
        "Optional check: the code the swap is attributed to. Omitted, the quote's code applies (the key's workspace code unless the quote named another).",
    }),
  })
  .openapi("ReceiptRequest");

export const ReceiptResponseSchema = z
  .object({
    status: z.enum(["confirming", "finalized"]).openapi({
      description:
        "`confirming` until the transaction's block is finalized (ask again later); `finalized` once verified and recorded.",
    }),
    hash: Hash32,
    quoteId: Hash32,
    builderCode: BuilderCode,
    tokenOut: Address,
    routeFee: Uint,
    builderFee: Uint,
    amountOut: Uint.openapi({
      description: "What the recipient received (from the settlement event once mined; quoted before).",
    }),
    blockNumber: Uint.nullable().openapi({ description: "Null until the transaction is mined." }),
    blockHash: Hash32.nullable(),
    logIndex: z.number().int().nullable().openapi({ description: "The settlement event's log index." }),
  })
  .openapi("ReceiptVerification");
