import {
  type Address,
  BaseError,
  CallExecutionError,
  encodeFunctionData,
  type Hex,
  type PublicClient,
} from "viem";
import { poolManagerAbi } from "../../contracts/abis/PoolManager.ts";
import type { Read } from "./read.ts";

export type ReadLimits = {
  /**
   * Calldata of the calls packed into one multicall. A deployless multicall carries them in its creation
   * code, which EIP-3860 caps at 49,152 bytes including the aggregator's own ~5.6 kB.
   */
  maxRequestBytes: number;
  /**
   * Encoded results of one multicall. A deployless multicall returns them as its "deployed code", which
   * EIP-170 caps at 24,576 bytes.
   */
  maxResponseBytes: number;
  /** Storage slots per `extsload` call, a plain call to the PoolManager. */
  maxSlotsPerExtsload: number;
};

/** Limits that fit a deployless multicall; with a deployed Multicall3 they can be raised. */
export const DEPLOYLESS_LIMITS: ReadLimits = {
  maxRequestBytes: 36_000,
  maxResponseBytes: 22_000,
  maxSlotsPerExtsload: 5_000,
};

export type ReadStats = {
  /** Sequential rounds of requests: what latency is made of. */
  roundTrips: number;
  /** `eth_call` requests sent (those of one round go out together). */
  requests: number;
  /** View calls inside multicalls. */
  calls: number;
  /** V4 storage slots read through `extsload`. */
  slots: number;
};

export type ReadTarget = {
  client: Pick<PublicClient, "multicall" | "readContract">;
  blockNumber: bigint;
  /** A deployed Multicall3; without one, viem's deployless multicall runs the aggregator inside the call. */
  multicallAddress?: Address;
  limits: ReadLimits;
  stats: ReadStats;
};

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

type CallRead = Extract<Read<unknown>, { kind: "call" }>;
type SlotRead = Extract<Read<unknown>, { kind: "slot" }>;

/**
 * Reads everything in one round trip at `blockNumber`: view calls packed into multicalls within the size
 * limits, V4 slots into `extsload(bytes32[])` calls per PoolManager, all sent at once. A call that reverts
 * or returns garbage fails only its own read; a request the node did not execute (transport, timeout, gas
 * cap) throws, so the caller's RPC policy applies rather than pools silently vanishing.
 */
export async function runReads(
  target: ReadTarget,
  reads: readonly Read<unknown>[],
): Promise<ReadOutcome<unknown>[]> {
  const outcomes: ReadOutcome<unknown>[] = new Array(reads.length);
  const calls: { read: CallRead; index: number }[] = [];
  const slotGroups = new Map<Address, { read: SlotRead; index: number }[]>();
  reads.forEach((read, index) => {
    if (read.kind === "call") calls.push({ read, index });
    else slotGroups.set(read.poolManager, [...(slotGroups.get(read.poolManager) ?? []), { read, index }]);
  });

  const requests: Promise<void>[] = [];
  for (const chunk of chunkCalls(calls, target.limits)) {
    target.stats.requests += 1;
    target.stats.calls += chunk.length;
    requests.push(
      target.client
        .multicall({
          contracts: chunk.map(({ read }) => read.call),
          blockNumber: target.blockNumber,
          allowFailure: true,
          batchSize: 0,
          ...(target.multicallAddress ? { multicallAddress: target.multicallAddress } : { deployless: true }),
        })
        .then((results) => {
          results.forEach((result, position) => {
            if (result.status === "failure" && isRequestFailure(result.error)) throw result.error;
            const { read, index } = chunk[position]!;
            outcomes[index] =
              result.status === "success"
                ? decode(read.decode, result.result)
                : { ok: false, error: result.error };
          });
        }),
    );
  }
  for (const [poolManager, group] of slotGroups) {
    for (let start = 0; start < group.length; start += target.limits.maxSlotsPerExtsload) {
      const chunk = group.slice(start, start + target.limits.maxSlotsPerExtsload);
      target.stats.requests += 1;
      target.stats.slots += chunk.length;
      requests.push(
        target.client
          .readContract({
            address: poolManager,
            abi: poolManagerAbi,
            functionName: "extsload",
            args: [chunk.map(({ read }) => read.slot)],
            blockNumber: target.blockNumber,
          })
          .then((values: readonly Hex[]) => {
            chunk.forEach(({ read, index }, position) => {
              const value = values[position];
              outcomes[index] =
                value === undefined
                  ? { ok: false, error: new RangeError("extsload returned fewer slots than asked") }
                  : decode(read.decode, value);
            });
          }),
      );
    }
  }
  if (requests.length > 0) target.stats.roundTrips += 1;
  await Promise.all(requests);
  return outcomes;
}

/** Splits calls into multicalls whose encoded calldata and results stay within the limits. */
function chunkCalls<T extends { read: CallRead }>(calls: readonly T[], limits: ReadLimits): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let [requestBytes, responseBytes] = [0, 0];
  for (const entry of calls) {
    // Per Call3 and per Result: an array offset, fixed fields, a bytes offset and length, padded bytes.
    const request = 160 + Math.ceil((encodeFunctionData(entry.read.call as never).length - 2) / 64) * 32;
    const response = 128 + Math.ceil(entry.read.returnBytes / 32) * 32;
    if (
      current.length > 0 &&
      (requestBytes + request > limits.maxRequestBytes || responseBytes + response > limits.maxResponseBytes)
    ) {
      chunks.push(current);
      current = [];
      [requestBytes, responseBytes] = [0, 0];
    }
    current.push(entry);
    requestBytes += request;
    responseBytes += response;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function decode(decoder: (value: never) => unknown, value: unknown): ReadOutcome<unknown> {
  try {
    return { ok: true, value: decoder(value as never) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * viem reports a rejected multicall request as a failure of every call in it; those carry the request's
 * CallExecutionError, while a single call's revert or bad return data never does.
 */
function isRequestFailure(error: unknown): boolean {
  return error instanceof BaseError && error.walk((cause) => cause instanceof CallExecutionError) !== null;
}
