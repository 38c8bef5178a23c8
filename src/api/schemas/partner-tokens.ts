import { z } from "@hono/zod-openapi";
import { TokenMetadataSchema } from "./builder-tokens.ts";
import { Address } from "./common-patterns.ts";
import { TransferFeeSchema } from "./transfer-fee.ts";

/** `GET {partner_url}/tokens` query: strict, so any other parameter is a 400 naming it. */
export const PartnerTokensQuerySchema = z
  .strictObject({
    address: Address.openapi({
      description:
        "The token contract to describe. The zero address (native ETH) answers ETH's fixed record without a lookup.",
      example: "0x0dcd1bf9a1b36ce34237eeafef220932846bcd82",
    }),
  })
  .openapi("PartnerTokensQuery");

/** The partner token lookup resource (docs/rules.md, partner token rule 1; token rules 2 and 3). */
export const PartnerTokenSchema = z
  .object({
    address: Address.openapi({
      description: "The token, lowercased.",
      example: "0x0dcd1bf9a1b36ce34237eeafef220932846bcd82",
    }),
    metadata: TokenMetadataSchema.nullable().openapi({
      description:
        'null when no metadata exists for the address (no contract, or decimals, symbol or name unreadable). For the zero address: `{decimals: 18, symbol: "ETH", name: "Ether", status: "native"}`.',
    }),
    pools: z.number().int().openapi({
      description:
        "Indexed pools containing the token that routing may use (hooked and dynamic-fee V4 pools excluded); 0 means the token cannot be routed. For the zero address: the pools holding native ETH itself (V4); quotes also route ETH through WETH pools.",
      example: 7,
    }),
    transferFee: TransferFeeSchema,
  })
  .openapi("PartnerToken");
