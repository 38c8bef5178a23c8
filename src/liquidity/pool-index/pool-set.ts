import type { Address } from "viem";
import { type IndexedPool, poolRef } from "./pool.ts";

const lower = <T extends string>(address: T) => address.toLowerCase() as T;
const pairKey = (a: Address, b: Address) =>
  BigInt(a) < BigInt(b) ? `${lower(a)}:${lower(b)}` : `${lower(b)}:${lower(a)}`;

const NONE: readonly IndexedPool[] = Object.freeze([]);

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
  /**
   * `of(token)`'s answers until a pool holding the token is added or removed: a quote lists a hub's
   * thousand pools without copying them, and readers may key caches on the array (select-pools.ts does).
   */
  private readonly listedOf = new Map<string, readonly IndexedPool[]>();

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
      this.listedOf.delete(lower(token));
    }
    return true;
  }

  remove(ref: string): void {
    const pool = this.byRef.get(ref);
    if (!pool) return;
    this.byRef.delete(ref);
    this.listed = undefined;
    this.byPair.get(pairKey(pool.token0, pool.token1))?.delete(ref);
    for (const token of [pool.token0, pool.token1]) {
      this.byToken.get(lower(token))?.delete(ref);
      this.listedOf.delete(lower(token));
    }
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
    // Tokens are keyed lowercase; one already lowercase (the usual case) is looked up without a copy.
    return (this.byToken.get(token) ?? this.byToken.get(lower(token)))?.size ?? 0;
  }

  /** The pools holding `token`, in insertion order: the same frozen array until one of them changes. */
  of(token: Address): readonly IndexedPool[] {
    let listed = this.listedOf.get(token) ?? this.listedOf.get(lower(token));
    if (!listed) {
      const key = lower(token);
      // Only tokens the set has held get an entry: a quote for an unknown token leaves nothing behind.
      const refs = this.byToken.get(key);
      if (!refs) return NONE;
      listed = Object.freeze([...refs].map((ref) => this.byRef.get(ref)!));
      this.listedOf.set(key, listed);
    }
    return listed;
  }
}
