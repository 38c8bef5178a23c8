import { z } from "@hono/zod-openapi";
import { BUILDER_LIMITS } from "../../builders/limits.ts";
import { CHAIN_ID } from "../../chain/chain.ts";
import { ChainIdField } from "./chain-id.ts";
import { Address, BuilderCode, Hash32 } from "./common-patterns.ts";

const From = Address.openapi({
  description: "The wallet that will sign: the builder's owner (the pending owner for accept-ownership).",
});
const Code = BuilderCode.optional().openapi({ description: "Default: the key's workspace code." });
const FeeBps = z.number().int().min(BUILDER_LIMITS.builderFeeBps.min).max(BUILDER_LIMITS.builderFeeBps.max);

/** One registry change; strict objects, discriminated by `action`. */
export const RegistryTransactionRequestSchema = z
  .discriminatedUnion("action", [
    z.strictObject({
      action: z.literal("register"),
      chainId: ChainIdField.optional(),
      code: Code,
      from: From,
      recipient: Address,
      builderFeeBps: FeeBps,
    }),
    z.strictObject({
      action: z.literal("set-recipient"),
      chainId: ChainIdField.optional(),
      code: Code,
      from: From,
      recipient: Address,
    }),
    z.strictObject({
      action: z.literal("set-fee"),
      chainId: ChainIdField.optional(),
      code: Code,
      from: From,
      builderFeeBps: FeeBps,
    }),
    z.strictObject({
      action: z.literal("transfer-ownership"),
      chainId: ChainIdField.optional(),
      code: Code,
      from: From,
      pendingOwner: Address.openapi({
        description: "The new owner, who must accept; the zero address cancels.",
      }),
    }),
    z.strictObject({
      action: z.literal("accept-ownership"),
      chainId: ChainIdField.optional(),
      code: Code,
      from: From,
    }),
  ])
  .openapi("RegistryTransactionRequest");

export const RegistryTransactionResponseSchema = z
  .object({
    action: z.enum(["register", "set-recipient", "set-fee", "transfer-ownership", "accept-ownership"]),
    code: BuilderCode,
    builderId: Hash32,
    tx: z
      .object({
        from: Address,
        to: Address.openapi({ description: "The BuilderRegistry." }),
        data: z.string(),
        value: z.literal("0"),
        chainId: z.literal(CHAIN_ID),
      })
      .openapi({ description: "Unsigned; simulated from `from` at the latest block before it is returned." }),
    simulatedAt: z.string().openapi({ description: "The block number the transaction was simulated at." }),
  })
  .openapi("RegistryTransaction");
