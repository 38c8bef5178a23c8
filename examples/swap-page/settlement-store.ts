import type { SettlementEvent } from "@junction/sdk";

/** What the page shows of a swap's settlement: the latest status Junction pushed, with its figures. */
export type Settlement = {
  quoteId: string;
  status: SettlementEvent["data"]["status"];
  hash: string;
  tokenOut: string;
  amountOut: string;
  routeFee: string;
  builderFee: string;
  /** The event that set this status. */
  eventId: string;
  /** Every event received for this quote, in arrival order (the push history the page can show). */
  events: { id: string; type: SettlementEvent["type"]; deliveryId: string | undefined }[];
};

/**
 * The example backend's memory of settlements, filled by verified webhook deliveries only. Deliveries
 * are at least once and unordered (docs/api/builders.md, "Events and webhooks"): a repeated event id is
 * dropped, and `finalized` is final (a late retry of `confirming` does not undo it). A real backend keeps
 * this in its database, with the event ids it processed.
 */
export function createSettlementStore() {
  const seen = new Set<string>();
  const byQuote = new Map<string, Settlement>();
  return {
    /** Records a verified event; false when its id was processed already (a repeated delivery). */
    record(event: SettlementEvent, deliveryId?: string): boolean {
      if (seen.has(event.id)) return false;
      seen.add(event.id);
      const quoteId = (event.quoteId ?? event.data.quoteId).toLowerCase();
      const known = byQuote.get(quoteId);
      const events = [...(known?.events ?? []), { id: event.id, type: event.type, deliveryId }];
      if (known?.status === "finalized") {
        byQuote.set(quoteId, { ...known, events });
        return true;
      }
      const { hash, tokenOut, amountOut, routeFee, builderFee, status } = event.data;
      byQuote.set(quoteId, {
        quoteId,
        status,
        hash,
        tokenOut,
        amountOut,
        routeFee,
        builderFee,
        eventId: event.id,
        events,
      });
      return true;
    },
    get: (quoteId: string): Settlement | undefined => byQuote.get(quoteId.toLowerCase()),
    all: (): Settlement[] => [...byQuote.values()],
  };
}

export type SettlementStore = ReturnType<typeof createSettlementStore>;
