/** The most the version-2 swap deducts from output, in bps (docs/rules.md, fee rule 1). */
export const MAX_SERVICE_FEE_BPS = 50;

/** Fee disclosure shown to integrators: docs/rules.md, fee rules 1-5, as the user worded them. */
export const FEE_DISCLOSURE = [
  "The version-2 swap deducts a disclosed, pair-dependent output fee of at most 0.50% (50 bps). Pool fees, provider charges and gas may still apply.",
  "A quote sourced from a third-party aggregator already includes that provider's fees; the service adds no fee on it.",
  "The contracts are experimental and unaudited.",
  "Builder attribution: a public, case-sensitive builder code attributes trades to a builder. It is not a credential. Each settlement separates the service fee and the builder fee.",
  "Transfer estimates are estimates only. Transfer creation, funding and deposits are disabled; fee collection is not enabled.",
] as const;
