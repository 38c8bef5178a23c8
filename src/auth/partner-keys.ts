import { defineKeyFamily } from "./key-family.ts";

/**
 * The partner quote's transaction parameters: only a key with swap permission may use them
 * (docs/rules.md, auth rule 7 and partner quote rule 3).
 */
export const SWAP_PARAMETERS = ["recipient", "slippageBps", "minOut", "deadline"] as const;

/** Who is calling the partner API: the key, its operator-given name, and whether it may shape a transaction. */
export type PartnerPrincipal = { keyId: string; name: string; swap: boolean };

/**
 * Partner keys (docs/rules.md, auth rule 7; ours: partner keys): `jpk_…` as `Authorization: Bearer`, issued
 * by the operator, rated per key. Their one permission, the `swap` scope, grants the transaction parameters;
 * without it a key quotes only. Listings show it as `swap: boolean`.
 */
export const partnerKeys = defineKeyFamily({
  family: "partner",
  prefix: "jpk",
  noun: "partner key",
  scopes: ["swap"] as const,
  needsScope: false,
  principal: ({ keyId, name, scopes }): PartnerPrincipal => ({ keyId, name, swap: scopes.includes("swap") }),
  show: (scopes) => ({ swap: scopes.includes("swap") }),
});
