import type { Hex, PublicClient } from "viem";
import { createLogScanner, type LogScanner } from "../chain/log-scanner.ts";
import { oneAtATime } from "../chain/one-at-a-time.ts";
import type { EventRow } from "../store/repositories/events.ts";
import {
  type SettlementEventRow,
  saveSettlementIndex,
  settlementEventsFor,
  settlementIndexState,
} from "../store/repositories/settlement-events.ts";
import type { WatchClosing } from "../store/repositories/settlement-watches.ts";
import type { Db } from "../store/schema.ts";
import type { SettlementEntry, SettlementIndexReader } from "./history.ts";
import { readSettlementLogs, type SettlementLogsClient, type SettlementSources } from "./settlement-logs.ts";

/**
 * The settlement index: the settlement records (the collector's `Settled` and the executor's `Attributed`
 * events, docs/rules.md, history rule 1) up to the finalized block, kept in the database,
 * so history pages read the indexed range from there instead of `eth_getLogs` (docs/rules.md, ours:
 * settlement index). It only ever holds finalized blocks; the block it reaches is saved with its hash, and
 * a chain that no longer has that hash (a reorg below finality, a devnet reset) makes it start over. History
 * checks the same hash before trusting it, so a stale index is never read.
 */
export type SettlementIndexOptions = {
  client: Pick<PublicClient, "getBlock"> & SettlementLogsClient;
  db: Db;
  sources: SettlementSources;
  /** The collector's deployment block: the first block indexed. */
  deploymentBlock: bigint;
  logs?: LogScanner;
  /**
   * What finality brings beside the index (settlement events, src/events/settlement-facts.ts), saved in
   * the index's own transaction.
   */
  facts?: FinalityHook;
};

/** Finality's events and watch closings for the settlements of `from..to`, and the news they were saved. */
export type FinalityHook = {
  finalize: (entries: readonly SettlementEntry[], from: bigint, to: bigint) => Promise<FinalityWrite>;
  finalized: (write: FinalityWrite) => void;
};

export type FinalityWrite = { events: EventRow[]; closings: WatchClosing[] };

export type SettlementIndexSync = { from: bigint; to: bigint; events: number; reset: boolean };

export function createSettlementIndex(options: SettlementIndexOptions): SettlementIndexReader & {
  sync: () => Promise<SettlementIndexSync>;
} {
  const { client, db } = options;
  // The index is of one deployment: it starts over when the collector changes.
  const collector = options.sources.collector.toLowerCase();
  const logs = options.logs ?? createLogScanner();
  // One sync at a time: a caller's sync queues behind the running one.
  const queue = oneAtATime();

  const syncOnce = async (): Promise<SettlementIndexSync> => {
    const finalized = await client.getBlock({ blockTag: "finalized" });
    const state = await settlementIndexState(db);
    let reset = state !== undefined && state.collector !== collector;
    if (state && !reset && state.indexedThrough <= finalized.number) {
      // A failed read (or a block the node says it lacks) throws: only another hash proves a reorg
      // (docs/rules.md, ours: index rollback); the index is kept and the next sync retries.
      const block = await client.getBlock({ blockNumber: state.indexedThrough });
      reset = block.hash?.toLowerCase() !== state.indexedHash;
    }
    const from = state && !reset ? state.indexedThrough + 1n : options.deploymentBlock;
    if (from > finalized.number) return { from, to: finalized.number, events: 0, reset: false };
    const found = await logs.scan(from, finalized.number, (fromBlock, toBlock) =>
      readSettlementLogs(client, options.sources, fromBlock, toBlock),
    );
    const events = found.map((entry): SettlementEventRow => {
      return {
        blockNumber: entry.blockNumber,
        logIndex: entry.logIndex,
        builderId: entry.builderId.toLowerCase(),
        entry: JSON.stringify(entry, (_, value) => (typeof value === "bigint" ? value.toString() : value)),
      };
    });
    const finality = await options.facts?.finalize(found, from, finalized.number);
    const saved = await saveSettlementIndex(db, {
      from,
      events,
      reset,
      state: { collector, indexedThrough: finalized.number, indexedHash: finalized.hash!.toLowerCase() },
      ...(finality ? { finality } : {}),
    });
    if (saved && finality) options.facts?.finalized(finality);
    return { from, to: finalized.number, events: events.length, reset };
  };

  return {
    logs,
    sync: () => queue(syncOnce),
    coverage: async () => {
      const state = await settlementIndexState(db);
      if (!state || state.collector !== collector) return undefined;
      return { through: state.indexedThrough, hash: state.indexedHash as Hex };
    },
    read: async (builderId, code, from, to) =>
      (await settlementEventsFor(db, builderId.toLowerCase(), from, to)).map((json) =>
        parseEntry(json, code),
      ),
  };
}

function parseEntry(json: string, code: string): SettlementEntry {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const big = (field: string) => BigInt(raw[field] as string);
  return {
    ...(raw as SettlementEntry),
    builderCode: code,
    amountIn: big("amountIn"),
    grossAmountOut: big("grossAmountOut"),
    routeFee: big("routeFee"),
    builderFee: big("builderFee"),
    amountOut: big("amountOut"),
    policyVersion: big("policyVersion"),
    blockNumber: big("blockNumber"),
  };
}
