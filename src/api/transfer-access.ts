import type { Context, MiddlewareHandler } from "hono";
import {
  authenticateTransferKey,
  type TransferPrincipal,
  type TransferScope,
} from "../auth/transfer-keys.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";
import { spendTransferRate } from "../transfers/rate-limit.ts";

export type TransferAccessVariables = { transferKey: TransferPrincipal };

/** The header carrying a transfer customer key (docs/rules.md, auth rule 8). */
export const TRANSFER_KEY_HEADER = "X-Service-Api-Key";

const MESSAGES = {
  missing: `missing transfer API key: send it in the ${TRANSFER_KEY_HEADER} header`,
  malformed: "invalid transfer API key",
  unknown: "invalid transfer API key",
  expired: "the transfer API key has expired",
  revoked: "the transfer API key has been revoked",
} as const;

/**
 * The gate in front of transfer estimates (docs/rules.md, auth rule 8): `X-Service-Api-Key` must carry a
 * live customer key (else 401 UNAUTHORIZED; the message never repeats the key) holding `scope` (else 403
 * FORBIDDEN). Keys are looked up on every request, so a revocation bites at once. The rate is spent later,
 * by {@link chargeTransferRequest}, once the request is valid.
 */
export function transferAccess(
  db: Db,
  scope: TransferScope,
): MiddlewareHandler<{ Variables: TransferAccessVariables }> {
  return async (c, next) => {
    const key = await authenticateTransferKey(db, c.req.header(TRANSFER_KEY_HEADER));
    if ("failure" in key) throw new JunctionError("UNAUTHORIZED", MESSAGES[key.failure]);
    if (!key.scopes.includes(scope))
      throw new JunctionError("FORBIDDEN", `the transfer API key lacks the ${scope} scope`);
    c.set("transferKey", key);
    await next();
  };
}

/**
 * Spends one estimate from the key's per-minute rate (docs/rules.md, ours: transfer estimates): 429
 * RATE_LIMITED with Retry-After (the seconds left in the minute window) when it is spent. Call it once the
 * request is valid, right before the work.
 */
export async function chargeTransferRequest(
  c: Context<{ Variables: TransferAccessVariables }>,
  db: Db,
): Promise<void> {
  const decision = await spendTransferRate(db, c.get("transferKey").keyId);
  if (!decision.ok)
    throw new JunctionError("RATE_LIMITED", "the transfer API key's per-minute estimate rate is spent", {
      retryAfterSeconds: decision.retryAfterSeconds,
    });
}
