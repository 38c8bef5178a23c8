/** The direct fee reserved from a transfer's gross input, in bps (SPEC transfer estimate rules). */
export const TRANSFER_ROUTE_FEE_BPS = 20;
