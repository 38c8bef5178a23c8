import type { Address } from "viem";
import { type IndexedPool, poolRef } from "./pool.ts";

const lower = <T extends string>(address: T) => address.toLowerCase() as T;
const pairKey = (a: Address, b: Address) =>
  BigInt(a) < BigInt(b) ? `${lower(a)}:${lower(b)}` : `${lower(b)}:${lower(a)}`;

/**
 * The index's pools, each once (by `poolRef`), findable by pair and by token in insertion order. Addresses
 * are compared lowercase; address(0) is native ETH, distinct from WETH.
 */
export class PoolSet {
  private readonly byRef = new Map<string, IndexedPool>();
  private readonly byPair = new Map<string, Set<string>>();
  private readonly byToken = new Map<string, Set<string>>();
  /** `all()`'s answer until the set changes: per-block readers get the same array, not a fresh copy. */
  private listed: readonly IndexedPool[] | undefined;

  get size(): number {
    return this.byRef.size;
  }

  has(ref: string): boolean {
    return this.byRef.has(ref);
  }

  /** Adds a pool not yet held; false (and nothing changes) when its ref is already there. */
  add(pool: IndexedPool): boolean {
    const ref = poolRef(pool);
    if (this.byRef.has(ref)) return false;
    this.byRef.set(ref, pool);
    this.listed = undefined;
    const pair = pairKey(pool.token0, pool.token1);
    if (!this.byPair.has(pair)) this.byPair.set(pair, new Set());
    this.byPair.get(pair)!.add(ref);
    for (const token of [pool.token0, pool.token1]) {
      if (!this.byToken.has(lower(token))) this.byToken.set(lower(token), new Set());
      this.byToken.get(lower(token))!.add(ref);
    }
    return true;
  }

  remove(ref: string): void {
    const pool = this.byRef.get(ref);
    if (!pool) return;
    this.byRef.delete(ref);
    this.listed = undefined;
    this.byPair.get(pairKey(pool.token0, pool.token1))?.delete(ref);
    for (const token of [pool.token0, pool.token1]) this.byToken.get(lower(token))?.delete(ref);
  }

  /** Removes every pool learned after block `block`; returns how many. */
  removeDiscoveredAfter(block: bigint): number {
    let removed = 0;
    for (const [ref, pool] of [...this.byRef]) {
      if (pool.discovery.block > block) {
        this.remove(ref);
        removed++;
      }
    }
    return removed;
  }

  clear(): void {
    for (const ref of [...this.byRef.keys()]) this.remove(ref);
  }

  refs(): string[] {
    return [...this.byRef.keys()];
  }

  /** Every pool, in insertion order: the same array until a pool is added or removed. */
  all(): readonly IndexedPool[] {
    this.listed ??= Object.freeze([...this.byRef.values()]);
    return this.listed;
  }

  forPair(tokenA: Address, tokenB: Address): IndexedPool[] {
    return [...(this.byPair.get(pairKey(tokenA, tokenB)) ?? [])].map((ref) => this.byRef.get(ref)!);
  }

  /** How many pools hold `token`, without listing them. */
  count(token: Address): number {
    return this.byToken.get(lower(token))?.size ?? 0;
  }

  of(token: Address): IndexedPool[] {
    return [...(this.byToken.get(lower(token)) ?? [])].map((ref) => this.byRef.get(ref)!);
  }
}
