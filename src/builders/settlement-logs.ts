import { type Address, getAbiItem, type Hex, type PublicClient } from "viem";
import { UpstreamUnavailableError } from "../chain/upstream-error.ts";
import type { Contracts } from "../config/deployment.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import type { SettlementEntry } from "./history.ts";

/** The collector's record of a fee-charging swap. */
export const SETTLED = getAbiItem({ abi: executorArtifact.abi, name: "Settled" });
/** The executor's record of an attributed swap that charged no fee (docs/rules.md, history rule 1). */
export const ATTRIBUTED = getAbiItem({ abi: executorArtifact.abi, name: "Attributed" });

/**
 * Where settlement records are read (docs/rules.md, history rule 1): the collector's `Settled` events, the
 * executor's `Attributed` events, and the registry that names an `Attributed` record's builder recipient and
 * policy version.
 */
export type SettlementSources = { collector: Address; executor: Address; registry: Address };

/** A deployment's settlement sources. */
export function settlementSources(contracts: Contracts): SettlementSources {
  return {
    collector: contracts.settlementCollector,
    executor: contracts.executor,
    registry: contracts.builderRegistry,
  };
}

export type SettlementLogsClient = Pick<PublicClient, "getLogs" | "readContract">;

/**
 * Every settlement record in `fromBlock..toBlock` (of `builderId` when given) as entries without a builder
 * code, in no particular order: `Settled` events as they are, `Attributed` events completed by
 * `withRegistryPolicy`.
 */
export async function readSettlementLogs(
  client: SettlementLogsClient,
  sources: SettlementSources,
  fromBlock: bigint,
  toBlock: bigint,
  builderId?: Hex,
): Promise<SettlementEntry[]> {
  const args = builderId === undefined ? {} : { args: { builderId } };
  const range = { fromBlock, toBlock, strict: true } as const;
  const [settled, attributed] = await Promise.all([
    client.getLogs({ address: sources.collector, event: SETTLED, ...args, ...range }),
    client.getLogs({ address: sources.executor, event: ATTRIBUTED, ...args, ...range }),
  ]);
  const fromAttributed = await withRegistryPolicy(client, sources.registry, attributed.map(attributedEntry));
  return [...settled.map((log) => settledEntry("", log)), ...fromAttributed];
}

type SettledLog = Awaited<ReturnType<typeof getSettled>>[number];
type AttributedLog = Awaited<ReturnType<typeof getAttributed>>[number];
const getSettled = (client: SettlementLogsClient) => client.getLogs({ event: SETTLED, strict: true });
const getAttributed = (client: SettlementLogsClient) => client.getLogs({ event: ATTRIBUTED, strict: true });

/** Where a log is; a log without a block (pending) is not a settlement yet. */
function placeOf(log: {
  blockNumber: bigint | null;
  blockHash: Hex | null;
  transactionHash: Hex | null;
  logIndex: number | null;
}) {
  if (
    log.blockNumber === null ||
    log.blockHash === null ||
    log.transactionHash === null ||
    log.logIndex === null
  )
    throw new UpstreamUnavailableError("block-pending");
  return {
    hash: log.transactionHash,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    logIndex: log.logIndex,
    status: "finalized" as const,
  };
}

/** A `Settled` log as a settlement entry of `code`. */
export function settledEntry(code: string, log: SettledLog): SettlementEntry {
  const { args } = log;
  return {
    quoteId: args.quoteId,
    builderCode: code,
    builderId: args.builderId,
    keyIdHash: args.keyIdHash,
    payer: args.payer,
    recipient: args.recipient,
    tokenIn: args.tokenIn,
    amountIn: args.amountIn,
    tokenOut: args.tokenOut,
    grossAmountOut: args.grossAmountOut,
    routeFee: args.routeFee,
    builderFee: args.builderFee,
    amountOut: args.amountOut,
    builderRecipient: args.builderRecipient,
    policyVersion: args.policyVersion,
    ...placeOf(log),
  };
}

/**
 * An `Attributed` log as a settlement entry: nothing was charged, so the gross output is the output and both
 * fees are zero; the builder recipient and policy version are still to be read from the registry.
 */
export function attributedEntry(log: AttributedLog): SettlementEntry {
  const { args } = log;
  return {
    quoteId: args.quoteId,
    builderCode: "",
    builderId: args.builderId,
    keyIdHash: args.keyIdHash,
    payer: args.payer,
    recipient: args.recipient,
    tokenIn: args.tokenIn,
    amountIn: args.amountIn,
    tokenOut: args.tokenOut,
    grossAmountOut: args.amountOut,
    routeFee: 0n,
    builderFee: 0n,
    amountOut: args.amountOut,
    builderRecipient: "0x0000000000000000000000000000000000000000",
    policyVersion: 0n,
    ...placeOf(log),
  };
}

/**
 * Completes entries read from `Attributed` events with what the registry named for their builder when the
 * swap ran (`recordPolicy`): the state before the event's block, or, when the registry changed earlier in
 * that block (a log of it before the event), the state after the block. One registry log read covers the
 * entries' blocks, and one call each distinct (builder, block) pair.
 */
export async function withRegistryPolicy(
  client: SettlementLogsClient,
  registry: Address,
  entries: SettlementEntry[],
): Promise<SettlementEntry[]> {
  if (entries.length === 0) return entries;
  const blocks = entries.map((e) => e.blockNumber);
  const changes = await client.getLogs({
    address: registry,
    fromBlock: blocks.reduce((a, b) => (a < b ? a : b)),
    toBlock: blocks.reduce((a, b) => (a > b ? a : b)),
  });
  const firstChange = new Map<bigint, number>();
  for (const log of changes) {
    if (log.blockNumber === null || log.logIndex === null) continue;
    const known = firstChange.get(log.blockNumber);
    if (known === undefined || log.logIndex < known) firstChange.set(log.blockNumber, log.logIndex);
  }
  const policyBlock = (e: SettlementEntry) => {
    const change = firstChange.get(e.blockNumber);
    return change !== undefined && change < e.logIndex ? e.blockNumber : e.blockNumber - 1n;
  };
  const reads = new Map<string, Promise<readonly [Address, bigint]>>();
  const read = (builderId: Hex, blockNumber: bigint) => {
    const key = `${builderId.toLowerCase()}@${blockNumber}`;
    let pending = reads.get(key);
    if (!pending) {
      pending = client.readContract({
        address: registry,
        abi: builderRegistryArtifact.abi,
        functionName: "recordPolicy",
        args: [builderId],
        blockNumber,
      });
      reads.set(key, pending);
    }
    return pending;
  };
  return Promise.all(
    entries.map(async (e) => {
      const [builderRecipient, policyVersion] = await read(e.builderId, policyBlock(e));
      return { ...e, builderRecipient, policyVersion };
    }),
  );
}
