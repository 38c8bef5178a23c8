import type { Context } from "hono";
import { spendKeyRate } from "../auth/key-rate.ts";
import { type PartnerPrincipal, partnerKeys, SWAP_PARAMETERS } from "../auth/partner-keys.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { PARTNER_LIMITS } from "../partners/limits.ts";
import type { Db } from "../store/schema.ts";
import { chargeKeyRequest, type KeyAccessVariables, type KeyGate, keyAccess } from "./key-access.ts";

export type { PartnerPrincipal } from "../auth/partner-keys.ts";

/** What a partner request spends from: quotes (with or without a transaction) and token lookups. */
export type PartnerRateBucket = keyof typeof PARTNER_LIMITS.ratePerKeyPerMinute;

export type PartnerAccessVariables = KeyAccessVariables<"partner", PartnerPrincipal>;

/** `Bearer <token>`: the scheme is case-insensitive (RFC 6750), the token one run of non-space characters. */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Partner keys at the edge (docs/rules.md, auth rule 7; ours: partner rate limits): `Authorization: Bearer`,
 * a 401 with `WWW-Authenticate: Bearer`, each key's per-minute rate per bucket (429 RATE_LIMITED with
 * Retry-After, the seconds left in the minute window).
 */
const PARTNER_GATE: KeyGate<"swap", PartnerPrincipal, "partner", PartnerRateBucket> = {
  family: partnerKeys,
  variable: "partner",
  header: "authorization",
  token: (value) => BEARER.exec(value)?.[1],
  noun: "partner API key",
  howToSend: "send it as Authorization: Bearer <key>",
  challenge: 'Bearer realm="junction-partner"',
  async spend(db, partner, bucket) {
    const decision = await spendKeyRate(
      db,
      partner.keyId,
      bucket,
      PARTNER_LIMITS.ratePerKeyPerMinute[bucket],
    );
    if (!decision.ok)
      throw new JunctionError("RATE_LIMITED", `the partner key's per-minute ${bucket} rate is spent`, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
  },
};

/** The gate in front of every partner endpoint: a live partner key, charging `bucket` (see keyAccess). */
export function partnerAccess(db: Db, bucket: PartnerRateBucket) {
  return keyAccess(PARTNER_GATE, db, { bucket });
}

/** Spends one request from the key's per-minute rate, once; call it once the request is valid. */
export function chargePartnerRequest(c: Context<{ Variables: PartnerAccessVariables }>): Promise<void> {
  return chargeKeyRequest(c);
}

/**
 * 403 FORBIDDEN naming the transaction parameters (`recipient`, `slippageBps`, `minOut`, `deadline`) among
 * `usedParams` when the key lacks swap permission (docs/rules.md, auth rule 7). Other names in
 * `usedParams` are ignored, so the request's query keys may be passed as they are.
 */
export function requireSwapPermission(
  c: Context<{ Variables: PartnerAccessVariables }>,
  usedParams: readonly string[],
): void {
  if (c.get("partner").swap) return;
  const used = SWAP_PARAMETERS.filter((name) => usedParams.includes(name));
  if (used.length > 0)
    throw new JunctionError(
      "FORBIDDEN",
      `${used.join(", ")} ${used.length === 1 ? "needs" : "need"} a partner key with swap permission`,
    );
}
