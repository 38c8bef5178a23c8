import { z } from "@hono/zod-openapi";
import { BUILDER_LIMITS } from "../../builders/limits.ts";
import { ChainIdParam } from "./chain-id.ts";
import { Address, BuilderCode, Hash32, Uint } from "./common-patterns.ts";

const Code = BuilderCode.openapi({ example: "junction-demo" });

/** `GET /api/v2/builders/history` query: strict, so an unknown parameter is a 400 naming it. */
export const BuilderHistoryQuerySchema = z
  .strictObject({
    chainId: ChainIdParam.optional(),
    code: Code.optional().openapi({
      description:
        "Public, case-sensitive builder code. Defaults to the key's workspace code (400 if the workspace has none). Any code may be read; an unregistered code simply has no settlements.",
    }),
    cursor: z.string().min(1).max(BUILDER_LIMITS.historyCursorMaxLength).optional().openapi({
      description:
        "`nextCursor` of the previous page, unchanged, with the same code. Omit it to start a new pagination.",
    }),
  })
  .openapi("BuilderHistoryQuery");

export const Settlement = z
  .object({
    quoteId: Hash32,
    builderCode: Code,
    builderId: Hash32,
    keyIdHash: Hash32,
    payer: Address,
    recipient: Address,
    tokenIn: Address.openapi({ description: "The zero address is native ETH." }),
    amountIn: Uint,
    tokenOut: Address.openapi({ description: "The zero address is native ETH." }),
    grossAmountOut: Uint.openapi({ description: "Output before fees." }),
    routeFee: Uint.openapi({ description: "Service fee, in tokenOut units." }),
    builderFee: Uint.openapi({ description: "Builder fee, in tokenOut units." }),
    amountOut: Uint.openapi({ description: "What the recipient received." }),
    builderRecipient: Address.openapi({
      description: "The builder's payout wallet; the zero address when the builder was not paid.",
    }),
    policyVersion: Uint,
    hash: Hash32.openapi({ description: "Transaction hash." }),
    blockNumber: Uint,
    blockHash: Hash32,
    logIndex: z.number().int(),
    status: z.literal("finalized"),
  })
  .openapi("BuilderSettlement", {
    description: "One `Settled` event of the settlement collector. Addresses are EIP-55 checksummed.",
  });

const TokenTotals = z
  .object({
    tokenOut: Address,
    grossAmountOut: Uint,
    routeFee: Uint,
    builderFee: Uint,
    amountOut: Uint,
    count: z.number().int(),
  })
  .openapi("BuilderHistoryTotals", {
    description: "Sums of this page's settlements with this output token, in its raw units.",
  });

export const BuilderHistorySchema = z
  .object({
    code: Code,
    builderId: Hash32.openapi({ description: "keccak256 of the code." }),
    settlements: z.array(Settlement).openapi({
      description: `At most ${BUILDER_LIMITS.historyPageEvents}, in chain order (block, then logIndex).`,
    }),
    nextCursor: z.string().max(BUILDER_LIMITS.historyCursorMaxLength).nullable().openapi({
      description:
        "Pass it unchanged as `cursor`, even after an empty page; null means the pinned finalized snapshot is complete.",
    }),
    finalizedThrough: Uint.openapi({
      description: "The finalized block pinned by the first page; every page reads up to it.",
    }),
    totalsByToken: z.array(TokenTotals).openapi({
      description: "Per output token, ordered by address; this page only. Never add amounts across tokens.",
    }),
    totalsScope: z.literal("page"),
    scannedFrom: Uint,
    scannedThrough: Uint.openapi({
      description: `Inclusive range of at most ${BUILDER_LIMITS.historyPageBlocks} blocks. When the event cap cut the page, scannedThrough is the block of the last settlement and the next page resumes right after it in that block. scannedThrough = scannedFrom - 1 when nothing was left to read.`,
    }),
    snapshotHash: Hash32.openapi({ description: "Hash of block finalizedThrough when it was pinned." }),
  })
  .openapi("BuilderHistory");
