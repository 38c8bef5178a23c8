import type { Address } from "viem";
import { assetKey, type Edge } from "../routing/edge.ts";
import { quotePath } from "../routing/path-curve.ts";
import { enumeratePaths } from "../routing/paths.ts";

/** 0.01 ETH: large enough for precise prices, small enough not to move the pools it is read from. */
const REFERENCE_WEI = 10n ** 16n;

/**
 * The one conversion model every candidate is ranked under (docs/rules.md, comparison rule 5): gas × the
 * shared gas price, in wei, then into output-token units at the price of the best path of at most two hops
 * from WETH to the output, read from the same pinned-block snapshots. `undefined` when no such path exists:
 * ranking then uses output alone.
 */
export function gasConversion(
  edges: readonly Edge[],
  tokenOut: Address,
  weth: Address,
  gasPrice: bigint,
): ((gas: number | bigint) => bigint) | undefined {
  const toWei = (gas: number | bigint) => BigInt(gas) * gasPrice;
  if (assetKey(tokenOut, weth) === weth.toLowerCase()) return toWei;
  let best = 0n;
  for (const path of enumeratePaths(edges, weth, tokenOut, weth, 2)) {
    const point = quotePath(path, REFERENCE_WEI);
    if (point && point.amountOut > best) best = point.amountOut;
  }
  if (best === 0n) return undefined;
  return (gas) => (toWei(gas) * best) / REFERENCE_WEI;
}
