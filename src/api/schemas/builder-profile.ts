import { z } from "@hono/zod-openapi";
import { ChainIdParam } from "./chain-id.ts";
import { Address as AnyAddress, BuilderCode } from "./common-patterns.ts";

const Address = AnyAddress.openapi({ example: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" });

/** `GET /api/v2/builders/profile` query: strict, so an unknown parameter is a 400 naming it. */
export const BuilderProfileQuerySchema = z
  .strictObject({
    chainId: ChainIdParam.optional(),
    code: BuilderCode.optional().openapi({
      description: "Builder code (public, case-sensitive). Defaults to the key's workspace code.",
      example: "junction-demo",
    }),
  })
  .openapi("BuilderProfileQuery");

/**
 * The builder profile (docs/rules.md, profile rule 2): the registry's state at one verified canonical block.
 */
export const BuilderProfileSchema = z
  .object({
    builder: z.object({
      code: BuilderCode.openapi({ example: "junction-demo" }),
      owner: Address.openapi({ description: "Registered owner (lowercase)." }),
      pendingOwner: Address.openapi({
        description: "Owner-to-be of a pending two-step handover; the zero address when none is pending.",
      }),
      recipient: Address.openapi({ description: "Payout wallet of the builder fee." }),
      builderFeeBps: z
        .number()
        .int()
        .openapi({ description: "Default builder fee, applied when a quote names none.", example: 10 }),
      maxBuilderFeeBps: z.number().int().openapi({ description: "Cap on the builder fee.", example: 50 }),
      routeFeeBps: z.number().int().nullable().openapi({
        description: "The builder's service fee override; null: the standard service fee schedule applies.",
      }),
      enabled: z.boolean().openapi({ description: "false while governance has the builder suspended." }),
      version: z
        .number()
        .int()
        .openapi({ description: "Starts at 1, bumped on every change to the builder." }),
      policySource: z.literal("onchain"),
      registry: Address.openapi({ description: "The BuilderRegistry read (lowercase)." }),
      policyBlock: z.string().openapi({
        description: "Decimal number of the block read; its hash was checked canonical after reading.",
      }),
      policyBlockHash: z.string().openapi({ example: `0x${"ab".repeat(32)}` }),
    }),
  })
  .openapi("BuilderProfile");
