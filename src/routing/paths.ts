import type { Address } from "viem";
import { assetKey, type Edge } from "./edge.ts";
import { SEARCH_LIMITS } from "./limits.ts";

/** A sequence of 1 to 3 edges from the input asset to the output asset, visiting no asset or pool twice. */
export type Path = readonly Edge[];

/** Every simple path of at most `maxHops` edges (docs/rules.md, comparison rule 6: up to 3 hops). */
export function enumeratePaths(
  edges: readonly Edge[],
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
  maxHops: number = SEARCH_LIMITS.maxHops,
): Path[] {
  const from = assetKey(tokenIn, weth);
  const to = assetKey(tokenOut, weth);
  const outgoing = new Map<string, Edge[]>();
  for (const edge of edges) {
    const key = assetKey(edge.tokenIn, weth);
    if (!outgoing.has(key)) outgoing.set(key, []);
    outgoing.get(key)!.push(edge);
  }
  const paths: Path[] = [];
  const walk = (asset: string, path: Edge[], seenAssets: Set<string>) => {
    for (const edge of outgoing.get(asset) ?? []) {
      const next = assetKey(edge.tokenOut, weth);
      if (seenAssets.has(next) || path.some((e) => e.poolRef === edge.poolRef)) continue;
      const extended = [...path, edge];
      if (next === to) paths.push(extended);
      else if (extended.length < maxHops) walk(next, extended, new Set([...seenAssets, next]));
    }
  };
  if (from !== to) walk(from, [], new Set([from]));
  return paths;
}

/** The pools a path uses, for pool-disjointness between split branches. */
export const poolsOf = (path: Path): string[] => path.map((edge) => edge.poolRef);
