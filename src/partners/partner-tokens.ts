import type { Address } from "viem";
import { lookupToken, type TokenCatalogDeps, type TokenMetadata } from "../quote/token-catalog.ts";
import type { TransferFee } from "../simulation/transfer-fee.ts";

/** The partner token lookup resource (docs/rules.md, partner token rule 1) in domain types. */
export type PartnerToken = {
  address: Address;
  metadata: TokenMetadata | null;
  pools: number;
  transferFee: TransferFee;
};

/**
 * One token for `GET {partner_url}/tokens`: the builder catalogue's record (docs/rules.md, token rules 2
 * and 3), without the builder-only `starter` flag. The zero address answers native ETH's record (18 decimals,
 * `status: "native"`, never looked up on chain) with the pools holding native ETH itself; every token with its
 * fee on transfer simulated at the latest block (docs/rules.md, token rule 4).
 */
export async function lookupPartnerToken(deps: TokenCatalogDeps, address: Address): Promise<PartnerToken> {
  const record = await lookupToken(deps, address);
  return {
    address: record.address,
    metadata: record.metadata,
    pools: record.pools,
    transferFee: record.transferFee,
  };
}
