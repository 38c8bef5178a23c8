import { type Address, type Log, parseEventLogs } from "viem";
import { builderIdOf } from "../builders/builder-code.ts";
import type { SettlementEntry } from "../builders/history.ts";
import { keyIdHashOf } from "../builders/key-id-hash.ts";
import type { FinalityHook, FinalityWrite } from "../builders/settlement-index.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { quoteOwners } from "../store/repositories/builder-quotes.ts";
import { settlementEventsAt } from "../store/repositories/settlement-events.ts";
import {
  closeWatchesWithEvents,
  confirmingWatchCount,
  confirmingWatches,
  openWatches,
  type SettlementWatch,
  type WatchClosing,
} from "../store/repositories/settlement-watches.ts";
import { listWorkspaceRows } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { type OutboxEvent, settlementEntryWire, settlementEvent } from "./event-envelope.ts";

/** A block the head follower applied, with its logs. */
export type FactBlock = { number: bigint; hash: `0x${string}`; logs: readonly Log[] };

export type SettlementFactsDeps = {
  db: Db;
  /** Where settlements are recorded: the collector's `Settled`, the executor's `Attributed`. */
  collector: Address;
  executor: Address;
  /** Told when events were written (the sender and streams of this process look at once). */
  onWritten?: () => void;
  now?: () => Date;
};

/**
 * Settlement facts as events (docs/api/builders.md, "Events and webhooks"), written only by the process
 * that indexes the chain:
 * - `observe` takes each block the head follower applied: a settlement of a quote this service issued,
 *   carrying the quote's builder and key (as receipt verification checks), opens a watch and writes
 *   `settlement.confirming`; a watched settlement whose block was replaced writes `settlement.reorged`;
 * - `finalize` takes the settlements the settlement index is about to save up to the finalized block:
 *   each becomes `settlement.finalized` for its workspace, and every watch it reaches is closed
 *   (finalized when its block was kept, reorged otherwise), in the index's own transaction.
 */
export function settlementFacts(deps: SettlementFactsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const collector = deps.collector.toLowerCase();
  const executor = deps.executor.toLowerCase();
  // Watches still confirming, known without asking the database at each block (undefined: not read yet).
  let open: number | undefined;

  async function observe(blocks: readonly FactBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    open ??= await confirmingWatchCount(db);
    if (open > 0) await closeReplaced(blocks);
    const logs = blocks.flatMap((block) =>
      block.logs.filter((log) => [collector, executor].includes(log.address.toLowerCase())),
    );
    if (logs.length > 0) await openConfirming(logs);
  }

  async function closeReplaced(blocks: readonly FactBlock[]): Promise<void> {
    const hashAt = new Map(blocks.map((block) => [block.number, block.hash.toLowerCase()]));
    const watches = await confirmingWatches(db, [...hashAt.keys()]);
    const replaced = watches.filter((watch) => hashAt.get(watch.blockNumber) !== watch.blockHash);
    await closeWatchesWithEvents(
      db,
      replaced.map((watch) => ({ watch, status: "reorged" as const })),
      replaced.map(reorgedEvent),
    );
    open = Math.max(0, (open ?? 0) - replaced.length);
    if (replaced.length > 0) deps.onWritten?.();
  }

  function reorgedEvent(watch: SettlementWatch): OutboxEvent {
    return settlementEvent("settlement.reorged", watch.workspaceId, JSON.parse(watch.entry), now());
  }

  async function openConfirming(logs: Log[]): Promise<void> {
    const found = settlementsIn(logs, collector, executor);
    const owners = new Map(
      (
        await quoteOwners(
          db,
          found.map((entry) => entry.quoteId.toLowerCase()),
        )
      ).map((q) => [q.id, q]),
    );
    const watches: SettlementWatch[] = [];
    const events: OutboxEvent[] = [];
    for (const entry of found) {
      const quote = owners.get(entry.quoteId.toLowerCase());
      // Only a prepared swap's settlement verifies: the quote's builder and the key that prepared it.
      if (
        !quote ||
        entry.builderId.toLowerCase() !== builderIdOf(quote.builder_code) ||
        entry.keyIdHash.toLowerCase() !== keyIdHashOf(quote.key_id)
      )
        continue;
      const attributed = entry.builderRecipient === undefined;
      const wire = settlementEntryWire(
        {
          ...entry,
          builderCode: quote.builder_code,
          builderRecipient: (entry.builderRecipient ?? quote.builder_recipient) as Address,
          policyVersion: attributed ? BigInt(quote.policy_version) : entry.policyVersion,
        },
        "confirming",
      );
      watches.push({
        hash: wire.hash.toLowerCase(),
        blockHash: wire.blockHash.toLowerCase(),
        blockNumber: entry.blockNumber,
        logIndex: entry.logIndex,
        quoteId: quote.id,
        workspaceId: quote.workspace_id,
        entry: JSON.stringify(wire),
      });
      events.push(settlementEvent("settlement.confirming", quote.workspace_id, wire, now()));
    }
    await openWatches(db, watches, events);
    open = (open ?? 0) + watches.length;
    if (events.length > 0) deps.onWritten?.();
  }

  /**
   * The events and watch closings of settlements finalized in `from..to` (`entries`, as the index saves
   * them, without builder codes): written by the index in the transaction that saves them.
   */
  async function finalize(
    entries: readonly SettlementEntry[],
    from: bigint,
    to: bigint,
  ): Promise<FinalityWrite> {
    const events = await finalizedEvents(entries);
    const closings: WatchClosing[] = [];
    const due = (await confirmingWatches(db)).filter((watch) => watch.blockNumber <= to);
    const kept = new Set(entries.map(placeKey));
    // A watch older than this range (it was seen after the index passed its block) is checked against
    // what the index saved then.
    const older = due.filter((watch) => watch.blockNumber < from);
    const saved = await settlementEventsAt(
      db,
      older.map((watch) => ({ blockNumber: watch.blockNumber, logIndex: watch.logIndex })),
    );
    for (const entry of saved) kept.add(placeKey(entry));
    for (const watch of due) {
      const status = kept.has(placeKey(watch)) ? ("finalized" as const) : ("reorged" as const);
      closings.push({ watch, status });
      if (status === "reorged") events.push(reorgedEvent(watch));
    }
    return { events, closings };
  }

  /** After the index saved a finality write: the watches it closed are no longer open. */
  function finalized(write: FinalityWrite): void {
    // Counted again from the database at the next block: another process may have indexed meanwhile.
    open = undefined;
    if (write.events.length > 0) deps.onWritten?.();
  }

  async function finalizedEvents(entries: readonly SettlementEntry[]): Promise<OutboxEvent[]> {
    if (entries.length === 0) return [];
    const owners = new Map(
      (
        await quoteOwners(
          db,
          entries.map((entry) => entry.quoteId.toLowerCase()),
        )
      ).map((q) => [q.id, q]),
    );
    const byBuilder = new Map<string, { id: string; code: string }>();
    if (entries.some((entry) => !owners.has(entry.quoteId.toLowerCase())))
      for (const row of await listWorkspaceRows(db))
        if (row.builder_code)
          byBuilder.set(builderIdOf(row.builder_code), { id: row.id, code: row.builder_code });
    const events: OutboxEvent[] = [];
    for (const entry of entries) {
      const quote = owners.get(entry.quoteId.toLowerCase());
      const owner = quote
        ? { id: quote.workspace_id, code: quote.builder_code }
        : byBuilder.get(entry.builderId.toLowerCase());
      if (!owner) continue;
      const wire = settlementEntryWire({ ...entry, builderCode: owner.code }, "finalized");
      events.push(settlementEvent("settlement.finalized", owner.id, wire, now()));
    }
    return events;
  }

  const hook: FinalityHook = { finalize, finalized };
  return { observe, ...hook };
}

export type SettlementFacts = ReturnType<typeof settlementFacts>;

/** Where a settlement is: its transaction, block and log. */
function placeKey(at: { hash: string; blockHash: string; logIndex: number }): string {
  return `${at.hash}:${at.blockHash}:${at.logIndex}`.toLowerCase();
}

/**
 * The settlements among a block's logs: `Settled` records of the collector as they are, `Attributed`
 * records of the executor with no builder recipient yet (the quote names it).
 */
function settlementsIn(logs: Log[], collector: string, executor: string) {
  type Found = Omit<SettlementEntry, "builderRecipient" | "status" | "builderCode"> & {
    builderRecipient?: Address;
  };
  const found: Found[] = [];
  for (const log of parseEventLogs({
    abi: executorArtifact.abi,
    eventName: ["Settled", "Attributed"],
    logs,
  })) {
    if (
      log.blockNumber === null ||
      log.blockHash === null ||
      log.transactionHash === null ||
      log.logIndex === null
    )
      continue;
    const place = {
      hash: log.transactionHash,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash,
      logIndex: log.logIndex,
    };
    const address = log.address.toLowerCase();
    if (log.eventName === "Settled" && address === collector) found.push({ ...log.args, ...place });
    else if (log.eventName === "Attributed" && address === executor)
      found.push({
        ...log.args,
        grossAmountOut: log.args.amountOut,
        routeFee: 0n,
        builderFee: 0n,
        policyVersion: 0n,
        ...place,
      });
  }
  return found;
}
