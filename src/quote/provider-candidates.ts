import type { Address } from "viem";
import type { ProviderFailure, ProviderQuote, QuoteProvider } from "../providers/provider.ts";
import type { QuoteSource } from "../providers/quote-sources.ts";
import { SYNTHETIC_CALLER } from "../simulation/synthetic-caller.ts";
import { QUOTE_LIMITS } from "./limits.ts";
import { type Candidate, QuoteError, type QuoteRequest } from "./quote-types.ts";

/** One provider's outcome per variant, for metrics and logs (never for a response). */
export type ProviderOutcome = {
  provider: ProviderQuote["provider"];
  variant: string;
  outcome: "quoted" | ProviderFailure["reason"] | "error";
  ms: number;
};

/**
 * Which third-party sources a request asks (docs/rules.md, comparison rules 1 and 8): every configured one
 * without `provider`; none for `service`; only the named one otherwise (`aggregator-a` with all its variants,
 * `aggregator-a-direct` with its direct variant alone). Naming a provider this deployment has not configured
 * is 422 PROVIDER_DISABLED, never a silent fallback.
 */
export function providersAsked(
  providers: readonly QuoteProvider[],
  provider: QuoteSource | undefined,
): { provider: QuoteProvider; variants?: readonly string[] }[] {
  if (provider === "service") return [];
  if (provider === undefined) return providers.map((p) => ({ provider: p }));
  const id = provider === "aggregator-a-direct" ? "aggregator-a" : provider;
  const found = providers.find((p) => p.id === id);
  if (!found)
    throw new QuoteError("PROVIDER_DISABLED", `provider ${provider} is not enabled on this deployment`);
  return [{ provider: found, ...(provider === "aggregator-a-direct" ? { variants: ["direct"] } : {}) }];
}

/**
 * Asks the providers in parallel, each under its own deadline (docs/rules.md, ours: aggregators): a slow,
 * failing or malformed provider never delays the quote past its deadline nor breaks it, and a quote that did
 * not arrive is not a candidate (docs/rules.md, comparison rule 9). Each quote becomes a candidate with no
 * service fee (docs/rules.md, fee rule 2), to be assessed like Junction's own.
 */
export async function providerCandidates(
  asked: { provider: QuoteProvider; variants?: readonly string[] }[],
  request: QuoteRequest,
  blockNumber: bigint,
  signal: AbortSignal,
  options: {
    deadlineMs?: number;
    onOutcome?: (outcome: ProviderOutcome) => void;
    /** Who sends the provider's transaction and receives its output (default: the synthetic caller). */
    taker?: Address;
    /** Who receives the output instead of the taker, where the provider can pay someone else. */
    recipient?: Address;
  } = {},
): Promise<Candidate[]> {
  const {
    deadlineMs = QUOTE_LIMITS.providerDeadlineMs,
    onOutcome = () => {},
    taker = SYNTHETIC_CALLER,
  } = options;
  const answers = await Promise.all(
    asked.map(async ({ provider, variants }) => {
      const started = Date.now();
      const deadline = AbortSignal.timeout(deadlineMs);
      const stop = AbortSignal.any([signal, deadline]);
      let timer: NodeJS.Timeout | undefined;
      // An adapter that ignores its signal still loses its place at the deadline.
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), deadlineMs + 50);
      });
      try {
        const outcome = await Promise.race([
          provider.quote({
            tokenIn: request.tokenIn,
            tokenOut: request.tokenOut,
            amountIn: request.amountIn,
            taker,
            ...(options.recipient ? { recipient: options.recipient } : {}),
            blockNumber,
            signal: stop,
            ...(variants ? { variants } : {}),
          }),
          late,
        ]);
        const ms = Date.now() - started;
        if (outcome === "late") {
          for (const variant of variants ?? provider.variants)
            onOutcome({ provider: provider.id, variant, outcome: "timeout", ms });
          return [];
        }
        for (const answer of outcome)
          onOutcome({
            provider: answer.provider,
            variant: answer.variant,
            outcome: "reason" in answer ? answer.reason : "quoted",
            ms,
          });
        return outcome.filter((answer): answer is ProviderQuote => !("reason" in answer));
      } catch {
        // An adapter bug: that provider has no candidate; the quote goes on.
        onOutcome({ provider: provider.id, variant: "*", outcome: "error", ms: Date.now() - started });
        return [];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return answers.flat().map(toCandidate);
}

function toCandidate(quote: ProviderQuote): Candidate {
  return {
    id: `${quote.provider === "aggregator-a-direct" ? "aggregator-a" : quote.provider}-${quote.variant}`,
    provider: quote.provider,
    variant: quote.variant,
    amountOut: quote.amountOut,
    grossAmountOut: quote.amountOut,
    serviceFeeBps: 0,
    serviceFee: 0n,
    builderFee: 0n,
    description: `${quote.provider === "aggregator-b" ? "firm quote" : "aggregator route"} (${quote.variant})`,
    branches: [],
    tx: quote.tx,
    spender: quote.allowanceTarget as Address,
    ...(quote.bindingMismatch ? { bindingMismatch: true as const } : {}),
    ...(quote.recipient ? { providerRecipient: quote.recipient } : {}),
    ...(quote.expiresAt === undefined ? {} : { expiresAt: quote.expiresAt }),
  };
}
