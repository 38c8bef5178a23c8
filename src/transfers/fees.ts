/**
 * The direct fee reserved from a transfer's gross input, in bps (docs/rules.md, transfer estimate rule 2).
 */
export const TRANSFER_ROUTE_FEE_BPS = 20;
