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
  // Each edge by the asset it takes, with the asset it leads to (keyed once, not at every visit).
  const outgoing = new Map<string, { edge: Edge; next: string }[]>();
  for (const edge of edges) {
    const key = assetKey(edge.tokenIn, weth);
    if (!outgoing.has(key)) outgoing.set(key, []);
    outgoing.get(key)!.push({ edge, next: assetKey(edge.tokenOut, weth) });
  }
  const paths: Path[] = [];
  // One path and one list of assets, extended and taken back as the walk goes (copied only when kept).
  const path: Edge[] = [];
  const seenAssets: string[] = [from];
  const walk = (asset: string) => {
    for (const { edge, next } of outgoing.get(asset) ?? []) {
      if (seenAssets.includes(next) || path.some((e) => e.poolRef === edge.poolRef)) continue;
      path.push(edge);
      if (next === to) paths.push([...path]);
      else if (path.length < maxHops) {
        seenAssets.push(next);
        walk(next);
        seenAssets.pop();
      }
      path.pop();
    }
  };
  if (from !== to) walk(from);
  return paths;
}

/** The pools a path uses, for pool-disjointness between split branches. */
export const poolsOf = (path: Path): string[] => path.map((edge) => edge.poolRef);
