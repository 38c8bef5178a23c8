import { keccak256, stringToHex } from "viem";
import type { SettlementEntry } from "../builders/history.ts";

/**
 * What a settlement event reports (docs/api/builders.md, "Events and webhooks"): a prepared swap's
 * transaction mined and verified (`confirming`), its settlement final (`finalized`, the history entry), or a
 * transaction seen mined that left the chain before finality (`reorged`).
 */
export const SETTLEMENT_EVENT_TYPES = [
  "settlement.confirming",
  "settlement.finalized",
  "settlement.reorged",
] as const;
export type SettlementEventType = (typeof SETTLEMENT_EVENT_TYPES)[number];

/** A test delivery an owner asks for: sent to one endpoint, never in the event stream. */
export const WEBHOOK_TEST = "webhook.test";
export type EventType = SettlementEventType | typeof WEBHOOK_TEST;

/** A settlement entry as every surface writes it: amounts and block numbers as decimal strings. */
export type SettlementEntryWire = ReturnType<typeof settlementEntryWire<string>>;

/** The wire form of a settlement entry (history's, docs/rules.md, history rule 1), with its status. */
export function settlementEntryWire<S extends string>(entry: Omit<SettlementEntry, "status">, status: S) {
  return {
    quoteId: entry.quoteId,
    builderCode: entry.builderCode,
    builderId: entry.builderId,
    keyIdHash: entry.keyIdHash,
    payer: entry.payer,
    recipient: entry.recipient,
    tokenIn: entry.tokenIn,
    amountIn: entry.amountIn.toString(),
    tokenOut: entry.tokenOut,
    grossAmountOut: entry.grossAmountOut.toString(),
    routeFee: entry.routeFee.toString(),
    builderFee: entry.builderFee.toString(),
    amountOut: entry.amountOut.toString(),
    builderRecipient: entry.builderRecipient,
    policyVersion: entry.policyVersion.toString(),
    hash: entry.hash,
    blockNumber: entry.blockNumber.toString(),
    blockHash: entry.blockHash,
    logIndex: entry.logIndex,
    status,
  };
}

/** An event as the outbox keeps it: the payload is the exact JSON text every delivery sends. */
export type OutboxEvent = {
  id: string;
  workspaceId: string;
  type: EventType;
  quoteId: string | null;
  payload: string;
};

/**
 * A settlement event for `workspaceId`, reporting `entry` with the status the type names. Its id is derived
 * from the fact (the type, the transaction, the block it was seen in and the log), so every process that
 * sees the fact writes the same event and the outbox keeps one (docs/api/builders.md, "Events and
 * webhooks": one event per fact).
 */
export function settlementEvent(
  type: SettlementEventType,
  workspaceId: string,
  entry: SettlementEntryWire,
  now = new Date(),
): OutboxEvent {
  const id = eventIdOf(type, `${entry.hash}:${entry.blockHash}:${entry.logIndex}`.toLowerCase());
  const data = { ...entry, status: type.slice("settlement.".length) };
  return envelope({ id, type, workspaceId, quoteId: entry.quoteId, data }, now);
}

/** Event ids: `evt_` and 128 bits of the fact's hash. */
export function eventIdOf(type: string, fact: string): string {
  return `evt_${keccak256(stringToHex(`${type}|${fact}`)).slice(2, 34)}`;
}

/** The envelope every event is delivered in, as JSON text. */
export function envelope(
  event: { id: string; type: EventType; workspaceId: string; quoteId: string | null; data: object },
  now: Date,
): OutboxEvent {
  const payload = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: now.toISOString(),
    workspace: event.workspaceId,
    quoteId: event.quoteId,
    data: event.data,
  });
  return { id: event.id, workspaceId: event.workspaceId, type: event.type, quoteId: event.quoteId, payload };
}
