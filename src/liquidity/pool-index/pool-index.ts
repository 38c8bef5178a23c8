import { type Address, type Hex, keccak256, type Log, type PublicClient, toBytes } from "viem";
import { createLogScanner, type LogRangePolicy } from "../../chain/log-scanner.ts";
import type { Contracts } from "../../config/deployment.ts";
import { v2Of, v3Of, v4Of } from "../../config/pool-sources.ts";
import { v4Exclusion, v4PoolId } from "../v4/pool-key.ts";
import { v2PairAddress, v3PoolAddress } from "./canonical.ts";
import { INITIALIZE, PAIR_CREATED, POOL_CREATED, V4_MODIFY_LIQUIDITY, V4_SWAP } from "./events.ts";
import type { PoolIndexPersistence } from "./persistence.ts";
import { type Discovery, type IndexedPool, type PoolKey, parsePool, poolRef, serializePool } from "./pool.ts";
import { positionManagerKeys, recoverV4Key } from "./v4-keys.ts";

export type IndexContracts = Pick<
  Contracts,
  | "v2Factory"
  | "v3Factory"
  | "v4PoolManager"
  | "v4PositionManager"
  | "v4StateView"
  | "v2PairInitCodeHash"
  | "v3PoolInitCodeHash"
>;

export type PoolIndexOptions = {
  client: Pick<PublicClient, "getLogs" | "getBlock" | "readContract" | "multicall">;
  contracts: IndexContracts;
  /** First block scanned; pools initialized earlier are still found through their V4 activity. */
  fromBlock: bigint;
  /** How `eth_getLogs` ranges are sized (default: adaptive, see log-scanner.ts). */
  logRanges?: LogRangePolicy;
  /** Where the index keeps what it learned between starts (the service: its database); none in tests. */
  persistence?: PoolIndexPersistence;
  /** A save that failed (the index keeps serving; the next save rewrites everything). */
  onPersistError?: (error: unknown) => void;
  /** Each range of logs a sync read, through block `end`: a long scan is progressing, not stuck. */
  onScanned?: (end: bigint) => void;
};

export type SyncResult = {
  from: bigint;
  to: bigint;
  added: number;
  rolledBack: number;
  reorg: boolean;
  /** On the first sync with persistence: the pools and the block the saved index resumed from. */
  resumed?: { pools: number; block: bigint };
  /** A refresh that took the indexer's saved index (not the chain). */
  readSaved?: true;
};

export type PoolIndex = {
  /** Brings the index up to `block` (default: latest), undoing whatever a reorg took back. */
  sync: (block?: { number: bigint; hash: Hex }) => Promise<SyncResult>;
  /**
   * Takes the index the indexer saved (another process holding the indexer lease) instead of reading the
   * chain: only what changed since the last refresh, everything again after a save that took pools back.
   * Undefined (nothing changed) until an index is saved under this configuration.
   */
  refresh: () => Promise<SyncResult | undefined>;
  syncedTo: () => { number: bigint; hash: Hex } | undefined;
  pools: () => IndexedPool[];
  /** Pools holding exactly these two tokens (address(0) is native ETH, distinct from WETH). */
  poolsForPair: (tokenA: Address, tokenB: Address) => IndexedPool[];
  /** Pools holding this token. */
  poolsOf: (token: Address) => IndexedPool[];
};

type Tip = { number: bigint; hash: Hex };
const lower = <T extends string>(address: T) => address.toLowerCase() as T;
const pairKey = (a: Address, b: Address) =>
  BigInt(a) < BigInt(b) ? `${lower(a)}:${lower(b)}` : `${lower(b)}:${lower(a)}`;

/**
 * The index of verified direct pools (docs/rules.md, comparison rule 1): V2 pairs and V3 pools from the
 * canonical factories' creation events, each checked against its CREATE2 address, and V4 pools from the
 * PoolManager's `Initialize` events, each checked against its key hash, with hooked and dynamic-fee pools
 * kept but excluded. V4 pools seen only through activity (initialized before `fromBlock`) get their key
 * from the PositionManager, or from one exact-id `Initialize` lookup when that key is missing or
 * mismatched (docs/rules.md, comparison rule 10). It follows the chain tip and rolls back what a reorg
 * removes. Addresses are lowercase throughout. A source the deployment leaves out is neither scanned nor
 * resolved (docs/rules.md, ours: pool sources).
 */
export function createPoolIndex(options: PoolIndexOptions): PoolIndex {
  const { client, contracts } = options;
  const [v2, v3, v4] = [v2Of(contracts), v3Of(contracts), v4Of(contracts)];
  const scanned = [v2?.factory, v3?.factory, v4?.v4PoolManager].filter((a): a is Address => !!a);
  const logs = createLogScanner(options.logRanges);
  const byRef = new Map<string, IndexedPool>();
  const byPair = new Map<string, Set<string>>();
  const byToken = new Map<string, Set<string>>();
  /** Tips of past syncs, newest last: a reorg rolls back to the newest one still canonical. */
  const tips: Tip[] = [];
  /** V4 ids whose key could not be resolved; not retried until a reorg. */
  const unresolved = new Set<string>();
  let running: Promise<unknown> = Promise.resolve();
  const { persistence } = options;
  const fingerprint = indexFingerprint(contracts, options.fromBlock);
  let restored = false;
  /** Set when the saved index must be rewritten whole (another configuration's, or a save failed). */
  let rewrite = false;
  /** Pools learned during the running sync, to save. */
  let learned: IndexedPool[] = [];
  /** The version of the saved index last loaded: a refresh loads only what later saves wrote. */
  let loadedVersion: bigint | undefined;
  /** The block a rollback kept through, until a save records it (a sync that failed after it did not). */
  let unsavedRollBack: bigint | undefined;

  const add = (pool: IndexedPool) => {
    const ref = poolRef(pool);
    if (byRef.has(ref)) return false;
    byRef.set(ref, pool);
    learned.push(pool);
    const pair = pairKey(pool.token0, pool.token1);
    if (!byPair.has(pair)) byPair.set(pair, new Set());
    byPair.get(pair)!.add(ref);
    for (const token of [pool.token0, pool.token1]) {
      if (!byToken.has(lower(token))) byToken.set(lower(token), new Set());
      byToken.get(lower(token))!.add(ref);
    }
    return true;
  };
  const remove = (ref: string) => {
    const pool = byRef.get(ref);
    if (!pool) return;
    byRef.delete(ref);
    byPair.get(pairKey(pool.token0, pool.token1))?.delete(ref);
    for (const token of [pool.token0, pool.token1]) byToken.get(lower(token))?.delete(ref);
  };

  const v4Pool = (rawKey: PoolKey, poolId: Hex, discovery: Discovery): IndexedPool => {
    const key = {
      ...rawKey,
      currency0: lower(rawKey.currency0),
      currency1: lower(rawKey.currency1),
      hooks: lower(rawKey.hooks),
    };
    const excluded = v4Exclusion(key);
    return {
      kind: "v4",
      poolId: poolId.toLowerCase() as Hex,
      key,
      token0: key.currency0,
      token1: key.currency1,
      fee: key.fee,
      tickSpacing: key.tickSpacing,
      discovery,
      ...(excluded ? { excluded } : {}),
    };
  };

  /** Adds the pool a creation event announces, if it is canonical; returns an unknown V4 id from activity. */
  const ingest = (log: Log<bigint, number, false, undefined, true, typeof ALL_EVENTS>): Hex | undefined => {
    const discovery: Discovery = { block: log.blockNumber!, blockHash: log.blockHash!, via: "event" };
    switch (log.eventName) {
      case "PairCreated": {
        const { token0, token1, pair } = log.args as { token0: Address; token1: Address; pair: Address };
        const canonical = v2 && v2PairAddress(v2.factory, v2.initCodeHash, token0, token1);
        if (canonical && lower(canonical) === lower(pair))
          add({ kind: "v2", address: pair, token0, token1, fee: 3000, discovery });
        return undefined;
      }
      case "PoolCreated": {
        const { token0, token1, fee, tickSpacing, pool } = log.args as {
          token0: Address;
          token1: Address;
          fee: number;
          tickSpacing: number;
          pool: Address;
        };
        const canonical = v3 && v3PoolAddress(v3.factory, v3.initCodeHash, token0, token1, fee);
        if (canonical && lower(canonical) === lower(pool))
          add({ kind: "v3", address: pool, token0, token1, fee, tickSpacing, discovery });
        return undefined;
      }
      case "Initialize": {
        const { id, currency0, currency1, fee, tickSpacing, hooks } = log.args as {
          id: Hex;
          currency0: Address;
          currency1: Address;
          fee: number;
          tickSpacing: number;
          hooks: Address;
        };
        const key = { currency0, currency1, fee, tickSpacing, hooks };
        if (v4PoolId(key) === lower(id)) add(v4Pool(key, id, discovery));
        return undefined;
      }
      default: {
        const id = lower((log.args as { id: Hex }).id) as Hex;
        return byRef.has(id) || unresolved.has(id) ? undefined : id;
      }
    }
  };

  /**
   * Keys for V4 ids known only from activity: PositionManager first, then one exact lookup each
   * (docs/rules.md, comparison rule 10).
   */
  const resolveActivity = async (ids: Hex[], tip: Tip) => {
    if (ids.length === 0 || !v4) return;
    const keys = await positionManagerKeys(client, v4.v4PositionManager, ids, tip.number);
    for (const [index, id] of ids.entries()) {
      const key = keys[index];
      if (key) {
        add(v4Pool(key, id, { block: tip.number, blockHash: tip.hash, via: "activity" }));
        continue;
      }
      const recovered = await recoverV4Key(client, v4, id, tip.number);
      if (recovered.status === "recovered") {
        add(
          v4Pool(recovered.key, id, {
            block: recovered.block,
            blockHash: recovered.blockHash,
            via: "activity",
          }),
        );
      } else {
        unresolved.add(id);
      }
    }
  };

  /**
   * Undoes everything learned after the newest past tip that is still canonical. Only the node answering
   * another hash at a tip's height proves a reorg: a failed read, or a block the node says it does not have
   * (a lagging node, a backup behind the primary), throws and leaves the index as it was, to be retried by
   * the next sync (docs/rules.md, ours: index rollback). A node whose head is below the newest tip cannot
   * be checked yet: nothing is rolled back, nothing scanned.
   */
  const rollBack = async (
    head: Tip,
  ): Promise<{ rolledBack: number; reorg: boolean; keepThrough?: bigint }> => {
    const last = tips.at(-1);
    if (!last || last.number > head.number) return { rolledBack: 0, reorg: false };
    if ((await hashAt(last.number)) === last.hash) return { rolledBack: 0, reorg: false };
    while (tips.length > 0 && (await hashAt(tips.at(-1)!.number)) !== tips.at(-1)!.hash) tips.pop();
    const keepThrough = tips.at(-1)?.number ?? options.fromBlock - 1n;
    let rolledBack = 0;
    for (const [ref, pool] of [...byRef]) {
      if (pool.discovery.block > keepThrough) {
        remove(ref);
        rolledBack++;
      }
    }
    unresolved.clear();
    return { rolledBack, reorg: true, keepThrough };
  };

  /** Loads the saved index (once, before the first sync); its tips let rollBack catch a reorg since. */
  const restore = async (): Promise<SyncResult["resumed"]> => {
    const saved = await persistence!.load();
    if (!saved) return undefined;
    if (saved.fingerprint !== fingerprint) {
      rewrite = true;
      return undefined;
    }
    adopt(saved);
    const last = tips.at(-1);
    return last ? { pools: byRef.size, block: last.number } : undefined;
  };
  /** Takes a loaded saved index as the index's own (whole when `full`, else its new pools). */
  const adopt = (saved: NonNullable<Awaited<ReturnType<PoolIndexPersistence["load"]>>>) => {
    if (saved.full) {
      for (const ref of [...byRef.keys()]) remove(ref);
      unresolved.clear();
    }
    for (const row of saved.pools) add(parsePool(row.pool));
    learned = [];
    tips.length = 0;
    for (const tip of JSON.parse(saved.tips) as { number: string; hash: Hex }[])
      tips.push({ number: BigInt(tip.number), hash: tip.hash });
    loadedVersion = saved.version;
  };

  const refreshOnce = async (): Promise<SyncResult | undefined> => {
    const saved = await persistence!.load(loadedVersion);
    if (!saved || saved.fingerprint !== fingerprint) return undefined;
    restored = true;
    const before = new Set(byRef.keys());
    const from = (tips.at(-1)?.number ?? options.fromBlock - 1n) + 1n;
    adopt(saved);
    const rolledBack = [...before].filter((ref) => !byRef.has(ref)).length;
    return {
      from,
      to: tips.at(-1)?.number ?? options.fromBlock - 1n,
      added: [...byRef.keys()].filter((ref) => !before.has(ref)).length,
      rolledBack,
      reorg: rolledBack > 0,
      readSaved: true,
    };
  };

  const save = async (keepThrough: bigint | undefined) => {
    const all = rewrite;
    const added = all ? [...byRef.values()] : learned;
    try {
      await persistence!.save({
        fingerprint,
        tips: JSON.stringify(tips.map((tip) => ({ number: tip.number.toString(), hash: tip.hash }))),
        added: added.map((pool) => ({
          ref: poolRef(pool),
          discoveredAt: pool.discovery.block,
          pool: serializePool(pool),
        })),
        ...(keepThrough !== undefined ? { rolledBackAfter: keepThrough } : {}),
        ...(all ? { reset: true } : {}),
      });
      rewrite = false;
    } catch (error) {
      rewrite = true;
      options.onPersistError?.(error);
    }
  };
  /** The canonical hash at `number`; throws when the node fails or says it has no such block. */
  const hashAt = async (number: bigint) => (await client.getBlock({ blockNumber: number })).hash;

  const syncOnce = async (target?: Tip): Promise<SyncResult> => {
    learned = [];
    let resumed: SyncResult["resumed"];
    if (persistence && !restored) {
      restored = true;
      resumed = await restore();
    }
    const tip = target ?? (await latestTip());
    const { rolledBack, reorg, keepThrough } = await rollBack(tip);
    if (keepThrough !== undefined) unsavedRollBack = min(unsavedRollBack, keepThrough);
    const from = (tips.at(-1)?.number ?? options.fromBlock - 1n) + 1n;
    let added = byRef.size;
    const unknown = new Set<Hex>();
    const found = await logs.scan(
      from,
      tip.number,
      (fromBlock, toBlock) =>
        client.getLogs({
          address: scanned,
          events: ALL_EVENTS,
          fromBlock,
          toBlock,
          strict: true,
        }),
      options.onScanned,
    );
    for (const log of found) {
      const id = ingest(log);
      if (id) unknown.add(id);
    }
    await resolveActivity(
      [...unknown].filter((id) => !byRef.has(id)),
      tip,
    );
    added = byRef.size - added;
    if (from <= tip.number || tips.length === 0) tips.push(tip);
    if (tips.length > 128) tips.shift();
    if (persistence) await save(unsavedRollBack);
    unsavedRollBack = undefined;
    return { from, to: tip.number, added, rolledBack, reorg, ...(resumed ? { resumed } : {}) };
  };
  const latestTip = async (): Promise<Tip> => {
    const block = await client.getBlock({ blockTag: "latest" });
    return { number: block.number!, hash: block.hash! };
  };

  // One sync or refresh at a time: concurrent callers queue behind the running one.
  const queue = <T>(step: () => Promise<T>) => {
    const next = running.then(step);
    running = next.catch(() => undefined);
    return next;
  };
  return {
    sync: (target) => queue(() => syncOnce(target)),
    refresh: () => {
      if (!persistence) throw new Error("refresh needs the index's persistence");
      return queue(refreshOnce);
    },
    syncedTo: () => tips.at(-1),
    pools: () => [...byRef.values()],
    poolsForPair: (a, b) => [...(byPair.get(pairKey(a, b)) ?? [])].map((ref) => byRef.get(ref)!),
    poolsOf: (token) => [...(byToken.get(lower(token)) ?? [])].map((ref) => byRef.get(ref)!),
  };
}

const min = (a: bigint | undefined, b: bigint) => (a === undefined || b < a ? b : a);

/** Names the index's configuration, so a saved index is reused only for the same contracts and first block. */
function indexFingerprint(contracts: IndexContracts, fromBlock: bigint): string {
  const fields = [
    "pool-index-v1",
    contracts.v2Factory ?? "",
    contracts.v2PairInitCodeHash ?? "",
    contracts.v3Factory ?? "",
    contracts.v3PoolInitCodeHash ?? "",
    contracts.v4PoolManager ?? "",
    fromBlock.toString(),
  ];
  return keccak256(toBytes(fields.join(":").toLowerCase()));
}

const ALL_EVENTS = [PAIR_CREATED, POOL_CREATED, INITIALIZE, V4_SWAP, V4_MODIFY_LIQUIDITY] as const;
