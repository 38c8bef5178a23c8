import { defineKeyFamily } from "./key-family.ts";

/**
 * Scopes of a transfer customer key (docs/rules.md, auth rule 8; ours: transfer keys): `estimates` reads
 * `GET /api/transfers/v1/routes`; `transfers` is reserved for transfer creation, funding and status, which
 * stay disabled (no endpoint answers to it yet), so a customer's key can be issued once for both.
 */
export const TRANSFER_SCOPES = ["estimates", "transfers"] as const;
export type TransferScope = (typeof TRANSFER_SCOPES)[number];

/** Who is asking for a transfer estimate: the key, its operator-given name and its scopes. */
export type TransferPrincipal = { keyId: string; name: string; scopes: TransferScope[] };

/**
 * Transfer-estimate customer keys (docs/rules.md, auth rule 8): `jtk_…` in `X-Service-Api-Key`, issued by
 * the operator, scoped, rated per key.
 */
export const transferKeys = defineKeyFamily({
  family: "transfer",
  prefix: "jtk",
  noun: "transfer key",
  scopes: TRANSFER_SCOPES,
  needsScope: true,
  principal: ({ keyId, name, scopes }): TransferPrincipal => ({ keyId, name, scopes }),
  show: (scopes) => ({ scopes }),
});
