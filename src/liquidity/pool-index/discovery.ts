import type { Address, Hex, Log, PublicClient } from "viem";
import { createLogScanner, type LogRangePolicy, type LogScanner } from "../../chain/log-scanner.ts";
import type { Contracts } from "../../config/deployment.ts";
import { v2Of, v3Of, v4Of } from "../../config/pool-sources.ts";
import { v4PoolId } from "../v4/pool-key.ts";
import { v2PairAddress, v3PoolAddress } from "./canonical.ts";
import { INITIALIZE, PAIR_CREATED, POOL_CREATED, V4_MODIFY_LIQUIDITY, V4_SWAP } from "./events.ts";
import type { IndexState } from "./index-state.ts";
import { type Discovery, type IndexedPool, poolRef } from "./pool.ts";
import type { Tip } from "./tip-history.ts";
import { activityPools, indexedV4Pool } from "./v4-keys.ts";

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

/** The creation events of the canonical factories and the PoolManager, and V4 activity. */
export const DISCOVERY_EVENTS = [
  PAIR_CREATED,
  POOL_CREATED,
  INITIALIZE,
  V4_SWAP,
  V4_MODIFY_LIQUIDITY,
] as const;
export type DiscoveryLog = Log<bigint, number, false, undefined, true, typeof DISCOVERY_EVENTS>;

/** Where and how the index discovers pools: the deployment's sources (a missing one is never scanned). */
export type DiscoveryChain = {
  client: Pick<PublicClient, "getLogs" | "getBlock" | "readContract" | "multicall">;
  v2?: { factory: Address; initCodeHash: Hex };
  v3?: { factory: Address; initCodeHash: Hex };
  v4?: { v4PoolManager: Address; v4PositionManager: Address; v4StateView: Address };
  /** The contracts whose logs are read: the enabled sources' factories and PoolManager. */
  scanned: Address[];
  logs: LogScanner;
  /** Each range of logs a sync read: how far it got of the blocks it scans. */
  onScanned?: (scan: ScanProgress) => void;
  /** Blocks one step of a long sync scans before saving what it found (default `CHECKPOINT_BLOCKS`). */
  checkpointBlocks?: bigint;
};

/** How far a sync's scan got: blocks `from` through `through` of `from` through `to`, holding `pools`. */
export type ScanProgress = { from: bigint; through: bigint; to: bigint; pools: number };

/**
 * A sync over more blocks than this scans and saves them in steps of this many (a first start on a long
 * chain): a restart resumes from the last step saved, and a step's logs are all that is held at once.
 */
export const CHECKPOINT_BLOCKS = 50_000n;

export function discoveryChain(options: {
  client: DiscoveryChain["client"];
  contracts: IndexContracts;
  logRanges?: LogRangePolicy;
  onScanned?: (scan: ScanProgress) => void;
  checkpointBlocks?: bigint;
}): DiscoveryChain {
  const { client, contracts } = options;
  const [v2, v3, v4] = [v2Of(contracts), v3Of(contracts), v4Of(contracts)];
  return {
    client,
    ...(v2 ? { v2 } : {}),
    ...(v3 ? { v3 } : {}),
    ...(v4 ? { v4 } : {}),
    scanned: [v2?.factory, v3?.factory, v4?.v4PoolManager].filter((a): a is Address => !!a),
    logs: createLogScanner(options.logRanges),
    ...(options.onScanned ? { onScanned: options.onScanned } : {}),
    ...(options.checkpointBlocks ? { checkpointBlocks: options.checkpointBlocks } : {}),
  };
}

/**
 * Discovers the pools created from block `from` through `to` and adds them to the index: each creation
 * event's pool if it is canonical, then the pools of V4 ids seen only in activity (initialized before the
 * first block scanned) whose keys resolve at `tip` (the chain's head: a node without archive state answers
 * reads there); an id that does not resolve is remembered as unresolved. Returns the pools added, in the
 * order they were found; all or nothing (a failed read adds none). `onRange` hears of each range read.
 */
export async function discoverPools(
  chain: DiscoveryChain,
  state: IndexState,
  range: { from: bigint; to: bigint; onRange?: (end: bigint) => void },
  tip: Tip,
): Promise<IndexedPool[]> {
  const found = await chain.logs.scan(
    range.from,
    range.to,
    (fromBlock, toBlock) =>
      chain.client.getLogs({
        address: chain.scanned,
        events: DISCOVERY_EVENTS,
        fromBlock,
        toBlock,
        strict: true,
      }),
    range.onRange,
  );
  return addDiscovered(chain, state, found, tip);
}

/**
 * The discovery events among `logs` (the scanned contracts' creations and V4 activity, whoever else logged
 * there): what a sync scans for, and what the head follower hands the index from its per-block read.
 */
export function discoveryLogs(chain: DiscoveryChain, logs: readonly Log[]): DiscoveryLog[] {
  const scanned = new Set(chain.scanned.map(lower));
  const names = new Set<string>(DISCOVERY_EVENTS.map((event) => event.name));
  return logs.filter(
    (log) => scanned.has(lower(log.address)) && names.has((log as DiscoveryLog).eventName),
  ) as DiscoveryLog[];
}

/**
 * Adds the pools `found` (discovery logs, in order) announce: each creation event's pool if it is
 * canonical, then the pools of V4 ids seen only in activity whose keys resolve at `tip`. All or nothing.
 */
export async function addDiscovered(
  chain: DiscoveryChain,
  state: IndexState,
  found: readonly DiscoveryLog[],
  tip: Tip,
): Promise<IndexedPool[]> {
  // Nothing reaches the index until discovery has finished: a read that fails part way (resolving an
  // activity id) leaves it as it was, and the next sync finds, adds and saves those pools again.
  const added = new Map<string, IndexedPool>();
  const known = (ref: string) => state.pools.has(ref) || added.has(ref);
  const add = (pool: IndexedPool) => {
    if (!known(poolRef(pool))) added.set(poolRef(pool), pool);
  };
  const unknown = new Set<Hex>();
  for (const log of found) {
    const seen = verifyLog(chain, log);
    if (seen?.pool) add(seen.pool);
    else if (seen?.activity && !known(seen.activity) && !state.unresolved.has(seen.activity))
      unknown.add(seen.activity);
  }
  const ids = [...unknown].filter((id) => !known(id));
  const unresolved: Hex[] = [];
  for await (const { id, pool } of activityPools(chain.client, chain.v4, ids, tip)) {
    if (pool) add(pool);
    else unresolved.push(id);
  }
  for (const pool of added.values()) state.pools.add(pool);
  for (const id of unresolved) state.unresolved.add(id);
  return [...added.values()];
}

/**
 * What one log tells the index: the pool a creation event announces, when it is the canonical one (V2/V3:
 * the factory's CREATE2 address; V4: the key hashing to the id), or the id a V4 activity event names.
 */
function verifyLog(
  chain: DiscoveryChain,
  log: DiscoveryLog,
): { pool?: IndexedPool; activity?: Hex } | undefined {
  const discovery: Discovery = { block: log.blockNumber!, blockHash: log.blockHash!, via: "event" };
  switch (log.eventName) {
    case "PairCreated": {
      const { token0, token1, pair } = log.args as { token0: Address; token1: Address; pair: Address };
      const canonical = chain.v2 && v2PairAddress(chain.v2.factory, chain.v2.initCodeHash, token0, token1);
      if (!canonical || lower(canonical) !== lower(pair)) return undefined;
      return { pool: { kind: "v2", address: pair, token0, token1, fee: 3000, discovery } };
    }
    case "PoolCreated": {
      const { token0, token1, fee, tickSpacing, pool } = log.args as {
        token0: Address;
        token1: Address;
        fee: number;
        tickSpacing: number;
        pool: Address;
      };
      const canonical =
        chain.v3 && v3PoolAddress(chain.v3.factory, chain.v3.initCodeHash, token0, token1, fee);
      if (!canonical || lower(canonical) !== lower(pool)) return undefined;
      return { pool: { kind: "v3", address: pool, token0, token1, fee, tickSpacing, discovery } };
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
      return v4PoolId(key) === lower(id) ? { pool: indexedV4Pool(key, id, discovery) } : undefined;
    }
    default:
      return { activity: lower((log.args as { id: Hex }).id) as Hex };
  }
}

const lower = <T extends string>(address: T) => address.toLowerCase() as T;
