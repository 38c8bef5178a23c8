import type { Address, Hex, PublicClient } from "viem";
import { readMany } from "../../chain/read-many.ts";
import { positionManagerAbi } from "../../contracts/abis/PositionManager.ts";
import { stateViewAbi } from "../../contracts/abis/StateView.ts";
import { v4Exclusion, v4PoolId } from "../v4/pool-key.ts";
import { INITIALIZE } from "./events.ts";
import type { Discovery, IndexedPool, PoolKey } from "./pool.ts";
import type { Tip } from "./tip-history.ts";

/**
 * The keys the PositionManager recorded for pool ids (`poolKeys(bytes25)`), at one block in one call.
 * A key is `undefined` when missing (never minted through the PositionManager) or when it does not hash to
 * the id (a truncated-id collision): both are the "missing or mismatched" case of
 * docs/rules.md, comparison rule 10.
 */
export async function positionManagerKeys(
  client: Pick<PublicClient, "multicall">,
  positionManager: Address,
  poolIds: readonly Hex[],
  blockNumber: bigint,
): Promise<(PoolKey | undefined)[]> {
  const results = await readMany(
    client,
    poolIds.map((id) => ({
      address: positionManager,
      abi: positionManagerAbi,
      functionName: "poolKeys" as const,
      args: [id.slice(0, 52) as Hex] as const,
    })),
    blockNumber,
  );
  return results.map((result, index) => {
    if (result.status !== "success") return undefined;
    const [currency0, currency1, fee, tickSpacing, hooks] = result.result;
    const key = { currency0, currency1, fee, tickSpacing, hooks };
    return tickSpacing !== 0 && v4PoolId(key) === poolIds[index]!.toLowerCase() ? key : undefined;
  });
}

export type KeyRecovery =
  | { status: "recovered"; key: PoolKey; block: bigint; blockHash: Hex }
  | { status: "not-found" | "hash-mismatch" | "not-initialized" };

/**
 * docs/rules.md, comparison rule 10: recovers the immutable key of an already-discovered V4 pool from its
 * `Initialize` event with exactly one log lookup filtered by the pool id, then requires the key to hash to
 * the id and the PoolManager's current state (at `blockNumber`) to show the pool initialized. Whether the
 * recovered key is routable (no hooks, static fee) is the caller's check, as for any key.
 */
export async function recoverV4Key(
  client: Pick<PublicClient, "getLogs" | "readContract">,
  contracts: { v4PoolManager: Address; v4StateView: Address },
  poolId: Hex,
  blockNumber: bigint,
  fromBlock = 0n,
): Promise<KeyRecovery> {
  const logs = await client.getLogs({
    address: contracts.v4PoolManager,
    event: INITIALIZE,
    args: { id: poolId },
    fromBlock,
    toBlock: blockNumber,
  });
  const log = logs[0];
  if (
    !log?.args.currency0 ||
    !log.args.currency1 ||
    log.args.fee === undefined ||
    log.args.tickSpacing === undefined
  ) {
    return { status: "not-found" };
  }
  const key: PoolKey = {
    currency0: log.args.currency0,
    currency1: log.args.currency1,
    fee: log.args.fee,
    tickSpacing: log.args.tickSpacing,
    hooks: log.args.hooks!,
  };
  if (v4PoolId(key) !== poolId.toLowerCase()) return { status: "hash-mismatch" };
  const [sqrtPriceX96] = await client.readContract({
    address: contracts.v4StateView,
    abi: stateViewAbi,
    functionName: "getSlot0",
    args: [poolId],
    blockNumber,
  });
  if (sqrtPriceX96 === 0n) return { status: "not-initialized" };
  return { status: "recovered", key, block: log.blockNumber!, blockHash: log.blockHash! };
}

const lower = <T extends string>(address: T) => address.toLowerCase() as T;

/** A V4 pool as the index holds it: addresses lowercase, excluded when hooked or dynamic-fee (rule 10). */
export function indexedV4Pool(rawKey: PoolKey, poolId: Hex, discovery: Discovery): IndexedPool {
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
}

/**
 * The pools of V4 ids known only from activity, at `tip`: keys from the PositionManager first (one call),
 * then one exact `Initialize` lookup for each id it lacks (docs/rules.md, comparison rule 10). Each id is
 * yielded as it is resolved, with its pool, or without one when its key could not be recovered.
 */
export async function* activityPools(
  client: Pick<PublicClient, "getLogs" | "readContract" | "multicall">,
  v4: { v4PoolManager: Address; v4PositionManager: Address; v4StateView: Address } | undefined,
  ids: readonly Hex[],
  tip: Tip,
): AsyncGenerator<{ id: Hex; pool?: IndexedPool }> {
  if (ids.length === 0 || !v4) return;
  const keys = await positionManagerKeys(client, v4.v4PositionManager, ids, tip.number);
  for (const [index, id] of ids.entries()) {
    const key = keys[index];
    if (key) {
      yield { id, pool: indexedV4Pool(key, id, { block: tip.number, blockHash: tip.hash, via: "activity" }) };
      continue;
    }
    const recovered = await recoverV4Key(client, v4, id, tip.number);
    if (recovered.status === "recovered") {
      const { key, block, blockHash } = recovered;
      yield { id, pool: indexedV4Pool(key, id, { block, blockHash, via: "activity" }) };
    } else {
      yield { id };
    }
  }
}
