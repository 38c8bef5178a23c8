import type { PublicClient } from "viem";
import { UpstreamUnavailableError } from "./upstream-error.ts";

/**
 * The one explicit gas price shared by every candidate's eth_call, estimateGas and ranking
 * (docs/rules.md, comparison rule 12): the maximum of a positive `eth_gasPrice` suggestion and the checked
 * block's base fee. Never zero: if neither is positive, there is no price, and the quote cannot be assessed.
 */
export async function gasPriceAt(
  client: Pick<PublicClient, "getGasPrice">,
  block: { baseFeePerGas: bigint | null },
): Promise<bigint> {
  let suggested = 0n;
  try {
    suggested = await client.getGasPrice();
  } catch {
    // A missing suggestion is not fatal while the base fee is positive; the max rule still holds.
  }
  const baseFee = block.baseFeePerGas ?? 0n;
  const price = suggested > baseFee ? suggested : baseFee;
  // No zero-price fallback: the request is answered 503 UPSTREAM_UNAVAILABLE (gas-price-unavailable).
  if (price <= 0n) throw new UpstreamUnavailableError("gas-price-unavailable");
  return price;
}
