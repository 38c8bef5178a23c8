import type { Address, Hex } from "viem";

export type { PoolKey } from "../v4/pool-key.ts";

import type { PoolKey } from "../v4/pool-key.ts";

/** Where the index learned of a pool: its block, so a reorg can take it back. */
export type Discovery = { block: bigint; blockHash: Hex; via: "event" | "activity" | "probe" };

type Base = {
  token0: Address;
  token1: Address;
  /** LP fee in hundredths of a bip (V2: 3000). */
  fee: number;
  discovery: Discovery;
};

export type V2Pool = Base & { kind: "v2"; address: Address };
export type V3Pool = Base & { kind: "v3"; address: Address; tickSpacing: number };
export type V4Pool = Base & {
  kind: "v4";
  poolId: Hex;
  key: PoolKey;
  tickSpacing: number;
  /**
   * Why routing must not use it (hooks or a dynamic fee, docs/rules.md, comparison rule 10); absent when
   * routable.
   */
  excluded?: "hooks" | "dynamic-fee";
};
export type IndexedPool = V2Pool | V3Pool | V4Pool;

/**
 * A pool's one identity across kinds and stages (the index, a read, a snapshot, followed state, an edge):
 * the V2/V3 address or the V4 pool id, lower-cased. The saved index stores it (`ref`), and the API and
 * partner hops show it as `pool`, so its format is fixed.
 */
export function poolRef(
  pool: { kind: "v2" | "v3"; address: string } | { kind: "v4"; poolId: string },
): string {
  return pool.kind === "v4" ? pool.poolId.toLowerCase() : pool.address.toLowerCase();
}

export const isRoutable = (pool: IndexedPool): boolean => pool.kind !== "v4" || pool.excluded === undefined;

/** A pool as JSON (its discovery block as a decimal string), for the persisted index. */
export function serializePool(pool: IndexedPool): string {
  return JSON.stringify({
    ...pool,
    discovery: { ...pool.discovery, block: pool.discovery.block.toString() },
  });
}

export function parsePool(json: string): IndexedPool {
  const raw = JSON.parse(json) as IndexedPool & { discovery: { block: string } };
  return { ...raw, discovery: { ...raw.discovery, block: BigInt(raw.discovery.block) } } as IndexedPool;
}
