/**
 * Quote sources a client may name in `provider` (docs/rules.md, builder quote rule 4: four values). `service`
 * is Junction's own search over verified direct pools; the aggregators are third-party sources behind one
 * adapter interface.
 */
export const QUOTE_SOURCES = ["service", "aggregator-a", "aggregator-b", "aggregator-a-direct"] as const;
export type QuoteSource = (typeof QUOTE_SOURCES)[number];

export type QuoteSourceStatus = {
  id: QuoteSource;
  kind: "direct-pools" | "aggregator" | "firm-quote";
  enabled: boolean;
  /** Why a provider is disabled, for operators and integrators. */
  reason?: string;
  /** Devnet only: the loopback stand-in answering for this provider (docs/api/public-quote.md, "Third-party providers"). */
  standInUrl?: string;
};

export const QUOTE_SOURCE_KINDS: Record<QuoteSource, QuoteSourceStatus["kind"]> = {
  service: "direct-pools",
  "aggregator-a": "aggregator",
  "aggregator-b": "firm-quote",
  "aggregator-a-direct": "aggregator",
};
