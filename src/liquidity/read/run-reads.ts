import { type Address, encodeAbiParameters, type Hex, type PublicClient } from "viem";
import { poolManagerAbi } from "../../contracts/abis/PoolManager.ts";
import { poolLensArtifact } from "../../contracts/artifacts/PoolLens.ts";
import type { Read } from "./read.ts";

export type ReadLimits = {
  /**
   * Packed view calls in one lens request. The lens travels as creation code, which EIP-3860 caps at
   * 49,152 bytes including its own ~0.4 kB and the ABI wrapping.
   */
  maxRequestBytes: number;
  /** Packed answers of one lens request: returned as "deployed code", which EIP-170 caps at 24,576 bytes. */
  maxResponseBytes: number;
  /** Storage slots per `extsload` call, a plain call to the PoolManager. */
  maxSlotsPerExtsload: number;
};

/** Limits that fit a deployless lens call on any node enforcing EIP-170 and EIP-3860 in `eth_call`. */
export const DEPLOYLESS_LIMITS: ReadLimits = {
  maxRequestBytes: 46_000,
  maxResponseBytes: 24_000,
  maxSlotsPerExtsload: 5_000,
};

export type ReadStats = {
  /** Sequential rounds of requests: what latency is made of. */
  roundTrips: number;
  /** `eth_call` requests sent (those of one round go out together). */
  requests: number;
  /** View calls inside lens requests. */
  calls: number;
  /** V4 storage slots read through `extsload`. */
  slots: number;
};

export type ReadTarget = {
  client: Pick<PublicClient, "call" | "readContract">;
  blockNumber: bigint;
  limits: ReadLimits;
  stats: ReadStats;
};

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

type ViewRead = Extract<Read<unknown>, { kind: "view" }>;
type SlotRead = Extract<Read<unknown>, { kind: "slot" }>;

/**
 * Reads everything in one round trip at `blockNumber`: view calls packed into deployless `PoolLens` calls
 * within the size limits, V4 slots into `extsload(bytes32[])` calls per PoolManager, all sent at once. A
 * view that reverts or returns too little fails only its own read; a request the node did not execute
 * (transport, timeout, gas cap) throws, so the caller's RPC policy applies rather than pools silently
 * vanishing.
 */
export async function runReads(
  target: ReadTarget,
  reads: readonly Read<unknown>[],
): Promise<ReadOutcome<unknown>[]> {
  const outcomes: ReadOutcome<unknown>[] = new Array(reads.length);
  const views: { read: ViewRead; index: number }[] = [];
  const slotGroups = new Map<Address, { read: SlotRead; index: number }[]>();
  reads.forEach((read, index) => {
    if (read.kind === "view") views.push({ read, index });
    else {
      const group = slotGroups.get(read.poolManager);
      if (group) group.push({ read, index });
      else slotGroups.set(read.poolManager, [{ read, index }]);
    }
  });

  const requests: Promise<void>[] = [];
  for (const chunk of chunkViews(views, target.limits)) {
    target.stats.requests += 1;
    target.stats.calls += chunk.length;
    requests.push(
      target.client
        .call({ data: lensCall(chunk.map(({ read }) => read)), blockNumber: target.blockNumber })
        .then(({ data }) => {
          const answers = parseLensAnswer(
            data ?? "0x",
            chunk.map(({ read }) => read.words.length),
          );
          chunk.forEach(({ read, index }, position) => {
            const words = answers[position];
            outcomes[index] = words
              ? decode(read.decode, words)
              : { ok: false, error: new Error("the view call reverted or returned too little") };
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

/** Splits views into lens requests whose packed calls and answers stay within the limits. */
function chunkViews<T extends { read: ViewRead }>(views: readonly T[], limits: ReadLimits): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let [requestBytes, responseBytes] = [0, 0];
  for (const entry of views) {
    const request = 20 + 2 + (entry.read.data.length - 2) / 2 + 1 + entry.read.words.length;
    const response = 1 + 32 * entry.read.words.length;
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

/** The lens's creation code with its request: `target | uint16 length | calldata | uint8 count | uint8 indexes`. */
export function lensCall(views: readonly ViewRead[]): Hex {
  let packed = "";
  for (const { target, data, words } of views) {
    packed += target.slice(2);
    packed += ((data.length - 2) / 2).toString(16).padStart(4, "0");
    packed += data.slice(2);
    packed += words.length.toString(16).padStart(2, "0");
    for (const word of words) packed += word.toString(16).padStart(2, "0");
  }
  return `${poolLensArtifact.bytecode}${encodeAbiParameters([{ type: "bytes" }], [`0x${packed}`]).slice(2)}` as Hex;
}

/**
 * The lens's answer, one entry per view: its words, or undefined when the call failed. Throws when the
 * answer does not have the shape the request implies (not a lens answer at all: the request failed).
 */
export function parseLensAnswer(answer: Hex, wordCounts: readonly number[]): (bigint[] | undefined)[] {
  const result: (bigint[] | undefined)[] = [];
  let at = 2;
  for (const count of wordCounts) {
    const status = answer.slice(at, at + 2);
    at += 2;
    if (status === "00") {
      result.push(undefined);
      continue;
    }
    if (status !== "01") throw new Error("the lens answered in an unexpected form");
    const words: bigint[] = [];
    for (let i = 0; i < count; i++, at += 64) words.push(BigInt(`0x${answer.slice(at, at + 64)}`));
    result.push(words);
  }
  if (at !== answer.length) throw new Error("the lens answered in an unexpected form");
  return result;
}

function decode(decoder: (value: never) => unknown, value: unknown): ReadOutcome<unknown> {
  try {
    return { ok: true, value: decoder(value as never) };
  } catch (error) {
    return { ok: false, error };
  }
}
