/**
 * The reserved fee: the direct fee reserved from a transfer's gross input, in bps (docs/rules.md, transfer
 * estimate rule 2). The wire calls it `routeFeeBps`; the service fee of a swap is another fee.
 */
export const RESERVED_FEE_BPS = 20;

/**
 * The reserved direct fee on `amount` base units: 20 bps, rounded up to the input asset's base unit, so the
 * provider input (`amount` minus this) never overstates what a provider would receive.
 */
export function reservedFee(amount: bigint): bigint {
  return (amount * BigInt(RESERVED_FEE_BPS) + 9_999n) / 10_000n;
}

/** What every estimate discloses (docs/rules.md, fee rule 5 and transfer estimate rules 2, 3 and 5). */
export const TRANSFER_FEE_DISCLOSURE =
  "Estimate only. A direct fee of 0.20% (20 bps) is reserved from the gross input; it is not collected while fee collection is disabled. A bridge provider's own fees and costs are inside its estimate, including any partner commission it already pays to this service, which the service keeps; that commission's rate is reported by the provider and not verified. The estimate floats with the provider's prices and is not a guaranteed payout; there is no fixed delivery time and no anonymity guarantee. Transfer creation, funding and deposits are disabled.";
