import { z } from "@hono/zod-openapi";
import { ChainIdParam } from "./chain-id.ts";
import { Address } from "./common-patterns.ts";
import { TransferFeeSchema } from "./transfer-fee.ts";

/** `GET /api/v2/builders/tokens` query: strict, so an unknown parameter is a 400 naming it. */
export const BuilderTokensQuerySchema = z
  .strictObject({
    chainId: ChainIdParam.optional(),
    address: Address.optional().openapi({
      description:
        "One token to describe (any address, starter or not; the zero address is native ETH). Omit it for the starter list.",
      example: "0x0dcd1bf9a1b36ce34237eeafef220932846bcd82",
    }),
  })
  .openapi("BuilderTokensQuery");

/**
 * The metadata object of a token record (docs/rules.md, token rule 2), shared with the partner `/tokens`
 * endpoint.
 */
export const TokenMetadataSchema = z
  .object({
    decimals: z.number().int().openapi({ description: "Converts user input to raw base units.", example: 6 }),
    symbol: z.string().openapi({ example: "USDC" }),
    name: z.string().openapi({ example: "USD Coin" }),
    status: z.enum(["listed", "onchain", "native"]).openapi({
      description:
        "Where the metadata comes from: `listed` the deployment's starter list (reviewed by the operator); `onchain` the token contract's own ERC-20 views at the latest block (unreviewed: any contract can claim any name); `native` ETH (18 decimals, not looked up).",
    }),
  })
  .openapi("TokenMetadata");

export const BuilderTokenSchema = z
  .object({
    address: Address.openapi({
      description: "The token, lowercase.",
      example: "0x0dcd1bf9a1b36ce34237eeafef220932846bcd82",
    }),
    metadata: TokenMetadataSchema.nullable().openapi({
      description:
        "null when no metadata exists for the address: no contract, or decimals, symbol or name (string or bytes32) unreadable.",
    }),
    pools: z.number().int().openapi({
      description:
        "Indexed pools containing the token that routing may use (hooked and dynamic-fee V4 pools excluded); 0 means the token cannot be routed.",
      example: 7,
    }),
    starter: z.boolean().openapi({ description: "Whether the token is on the starter list." }),
    transferFee: TransferFeeSchema,
  })
  .openapi("BuilderToken");

export const BuilderTokensSchema = z
  .object({
    tokens: z.array(BuilderTokenSchema).openapi({
      description:
        "The starter list in the deployment's order, or exactly one token when `address` is given.",
    }),
  })
  .openapi("BuilderTokens");
