import type { z } from "@hono/zod-openapi";
import type { TransferFee } from "../../simulation/transfer-fee.ts";
import type { TransferFeeSchema } from "../schemas/transfer-fee.ts";

/** A measured (or unknown) transfer fee as the token endpoints report it: null figures with a reason, never a guess. */
export function toTransferFeeResponse(fee: TransferFee): z.infer<typeof TransferFeeSchema> {
  if (fee.status === "native") return { feeOnTransfer: false, bps: 0, reason: null, block: null };
  if (fee.status === "unknown")
    return {
      feeOnTransfer: null,
      bps: null,
      reason: fee.reason,
      block: fee.blockNumber === null ? null : fee.blockNumber.toString(),
    };
  return { feeOnTransfer: fee.bps > 0, bps: fee.bps, reason: null, block: fee.blockNumber.toString() };
}
