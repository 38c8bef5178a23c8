import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Address, Hex } from "viem";
import type { UniswapDeployment } from "../../src/devnet/deploy-uniswap.ts";
import type { ScaleToken } from "./universe.ts";

/** A token of the scale chain: its universe entry and where it lives (WETH is Uniswap's WETH9). */
export type ScaleTokenDeployed = Omit<ScaleToken, "priceE8"> & { priceE8: string; address: Address };

/** A pool as built: its kind, where it lives, its tokens (by index and by sorted address) and its depth. */
export type ScalePool = {
  kind: "v2" | "v3" | "v4";
  /** The pair or pool contract (V2, V3); V4 pools have `poolId` instead. */
  address?: Address;
  poolId?: Hex;
  /** Token indexes in the manifest's `tokens`, in universe order. */
  a: number;
  b: number;
  /** Sorted by address; a V4 pool's native ETH is the zero address. */
  token0: Address;
  token1: Address;
  fee?: number;
  tickSpacing?: number;
  depthUsd: string;
};

/**
 * What a build left in the cache beside anvil's state file: everything the measuring run needs to drive
 * the chain and ask for quotes, so nothing is read back from the chain.
 */
export type ScaleManifest = {
  version: number;
  poolCount: number;
  seed: number;
  uniswap: UniswapDeployment;
  tokens: ScaleTokenDeployed[];
  pools: ScalePool[];
  accounts: { builder: Address; swappers: Address[]; junctionDeployer: Address };
  /** Block numbers: Uniswap's first contract, the first and last pool blocks, Junction's deployment, the head. */
  blocks: { uniswap: number; poolsFrom: number; poolsTo: number; junction: number; head: number };
  build: { seconds: number; transactions: number; gasUsed: string };
};

export function readScaleManifest(path: string): ScaleManifest {
  return JSON.parse(readFileSync(path, "utf8")) as ScaleManifest;
}

/** Written last and atomically: a cache directory without it is an unfinished build. */
export function writeScaleManifest(path: string, manifest: ScaleManifest): void {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
