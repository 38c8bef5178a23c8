import type { Context } from "hono";
import { spendKeyRate } from "../auth/key-rate.ts";
import { type TransferPrincipal, type TransferScope, transferKeys } from "../auth/transfer-keys.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";
import { TRANSFER_LIMITS } from "../transfers/limits.ts";
import { chargeKeyRequest, type KeyAccessVariables, type KeyGate, keyAccess } from "./key-access.ts";

export type TransferAccessVariables = KeyAccessVariables<"transferKey", TransferPrincipal>;

/** The header carrying a transfer customer key (docs/rules.md, auth rule 8). */
export const TRANSFER_KEY_HEADER = "X-Service-Api-Key";

/**
 * Transfer customer keys at the edge (docs/rules.md, auth rule 8; ours: transfer estimates):
 * `X-Service-Api-Key`, each key's per-minute estimate rate (429 RATE_LIMITED with Retry-After, the seconds
 * left in the minute window).
 */
const TRANSFER_GATE: KeyGate<TransferScope, TransferPrincipal, "transferKey", "estimates"> = {
  family: transferKeys,
  variable: "transferKey",
  header: TRANSFER_KEY_HEADER,
  scopes: (principal) => principal.scopes,
  noun: "transfer API key",
  howToSend: `send it in the ${TRANSFER_KEY_HEADER} header`,
  async spend(db, key, bucket) {
    const decision = await spendKeyRate(db, key.keyId, bucket, TRANSFER_LIMITS.ratePerKeyPerMinute);
    if (!decision.ok)
      throw new JunctionError("RATE_LIMITED", "the transfer API key's per-minute estimate rate is spent", {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
  },
};

/** The gate in front of transfer estimates: a live customer key holding `scope` (see keyAccess). */
export function transferAccess(db: Db, scope: TransferScope) {
  return keyAccess(TRANSFER_GATE, db, { scope, bucket: "estimates" });
}

/** Spends one estimate from the key's per-minute rate, once; call it once the request is valid. */
export function chargeTransferRequest(c: Context<{ Variables: TransferAccessVariables }>): Promise<void> {
  return chargeKeyRequest(c);
}
