import { z } from "@hono/zod-openapi";
import { CHAIN_ID } from "../../chain/chain.ts";
import { ChainIdField } from "./chain-id.ts";
import { Address, Hash32, Uint } from "./common-patterns.ts";

export const IdempotencyKeyHeader = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{8,128}$/, "must be 8 to 128 characters of A-Z a-z 0-9 _ . : -")
  .openapi({
    description:
      "Required: 8 to 128 characters of A-Z a-z 0-9 _ . : - (anything else is 400 INVALID_REQUEST). Makes the preparation idempotent per API key: a repeat with the same key and body replays the saved outcome (200 `ready`, or the saved 503 PREPARATION_FAILED; 409 PLAN_NOT_READY while the first is still running); the same key with another body is 409 IDEMPOTENCY_CONFLICT. A UUID is a good choice.",
    example: "3f1c9a52-7d0e-4b8e-9a61-2f4c1d9e8b70",
  });

export const SwapRequestSchema = z
  .strictObject({
    chainId: ChainIdField.optional(),
    quoteId: Hash32.openapi({ description: "A builder quote issued to this same key." }),
  })
  .openapi("SwapPreparationRequest");

export const PreparedSwapSchema = z
  .object({
    idempotencyKey: z.string(),
    quoteId: Hash32,
    status: z.literal("ready"),
    tx: z
      .object({
        from: Address.openapi({ description: "The payer: the only account this transaction works from." }),
        to: Address.openapi({ description: "The executor." }),
        data: z.string().openapi({ description: "Calldata, sent as returned." }),
        value: Uint.openapi({ description: "Wei; equals amountIn for native ETH input, otherwise 0." }),
        chainId: z.literal(CHAIN_ID),
        gas: Uint.openapi({ description: "Gas limit: the simulated estimate plus a 25% margin." }),
      })
      .openapi({
        description: "Unsigned. The service never signs or submits; refresh fee fields before signing.",
      }),
    approval: z
      .object({
        token: Address,
        spender: Address.openapi({ description: "The executor (equals tx.to)." }),
        amount: Uint,
        currentAllowance: Uint,
        required: z.boolean().openapi({ description: "True when the current allowance is below amount." }),
      })
      .nullable()
      .openapi({
        description: "ERC-20 input: approve `amount` to `spender` before sending. Null for native ETH.",
      }),
    balance: z.object({ token: Address, required: Uint, current: Uint, sufficient: z.boolean() }),
    simulation: z.object({ block: Uint, blockHash: Hash32, amountOut: Uint, gas: Uint }).openapi({
      description:
        "The transaction run from the payer at this block, with the input balance and exact allowance set by state override: amountOut is what the recipient would receive.",
    }),
    minimumAmountOut: Uint,
    deadline: z.number().int().openapi({ description: "Unix seconds; the transaction reverts after it." }),
    expiresAt: z.number().int().openapi({ description: "Unix seconds; the quote's preparation window." }),
  })
  .openapi("PreparedSwap");

export const PreparationStatusSchema = z
  .object({
    idempotencyKey: z.string(),
    quoteId: Hash32,
    status: z.enum(["pending", "ready", "failed"]),
    failure: z.string().optional().openapi({ description: "Why the preparation failed (status failed)." }),
    swap: PreparedSwapSchema.optional().openapi({ description: "The prepared swap (status ready)." }),
  })
  .openapi("SwapPreparationStatus");
