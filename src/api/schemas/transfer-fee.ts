import { z } from "@hono/zod-openapi";
import { TRANSFER_FEE_UNKNOWN_REASONS } from "../../simulation/transfer-fee.ts";
import { Uint } from "./common-patterns.ts";

/**
 * A token's fee on transfer as the token lookups report it (docs/rules.md, token rule 4), shared by the
 * builder and partner token endpoints.
 */
export const TransferFeeSchema = z
  .object({
    feeOnTransfer: z.boolean().nullable().openapi({
      description:
        "Whether a simulated transfer delivered less than left the sender; null when it could not be measured (see `reason`). False for native ETH.",
    }),
    bps: z.number().int().nullable().openapi({
      description:
        "The share of a transfer that did not reach the recipient, in bps of what left the sender, rounded up (any shortfall is at least 1); 0 for a plain token and native ETH; null when unknown.",
      example: 0,
    }),
    reason: z.enum(TRANSFER_FEE_UNKNOWN_REASONS).nullable().openapi({
      description:
        "Why the fee is unknown, null when it was measured: `no-token-metadata` not an ERC-20; `balance-slot-not-found` no single storage slot holds a balance (rebasing shares), so no holder can be funded; `transfer-reverted` / `transfer-refused` the transfer reverted / returned false; `nothing-moved` the sender's balance did not go down; `balances-inconsistent` more arrived than left; `simulation-unsupported` the node refused the simulating call.",
    }),
    block: Uint.nullable().openapi({
      description:
        "The block the transfer was simulated at (latest at the lookup); null for native ETH, which is not simulated.",
    }),
  })
  .openapi("TransferFee", {
    description:
      "Measured by simulating a transfer of one whole token (at least 10,000 base units) from a synthetic holder, funded by a storage override, to a fresh address at the block (`eth_call`; the token's code is not replaced). A token that taxes only some transfers (to or from a pool, above a size, from a non-exempt sender) may show 0 here and still take a fee in a swap.",
  });
