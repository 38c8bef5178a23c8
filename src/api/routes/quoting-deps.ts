import type { PublicClient } from "viem";
import type { Deployment } from "../../config/deployment.ts";
import type { PoolIndex } from "../../liquidity/pool-index/pool-index.ts";
import type { createAdmission } from "../../quote/admission.ts";
import type { QuoteRequest, QuoteResult } from "../../quote/quote-types.ts";
import type { createFixtures } from "../../simulation/fixtures.ts";
import type { TransferFeeMeter } from "../../simulation/transfer-fee.ts";
import type { Db } from "../../store/schema.ts";

/**
 * What every keyed quoting surface (builder, partner) needs, passed in (no singletons): tests build it
 * against anvil + PGlite. Each surface has its own `admission`, so one surface's traffic cannot starve
 * another's.
 */
export type QuotingDeps = {
  /** Keys, quotas and saved records. */
  db: Db;
  client: PublicClient;
  deployment: Deployment;
  /** Pools known to the service (token pool counts; the quoter's own index). */
  index: PoolIndex;
  /** The comparison pipeline shared by every surface (src/quote). */
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  /** Balance/allowance state overrides for simulations (shared with the quoter: slot layouts are cached). */
  fixtures: ReturnType<typeof createFixtures>;
  /** Simulated transfers measuring fees on transfer (token lookups and the quoter share it). */
  transferFees: TransferFeeMeter;
  /** This surface's per-process capacity. */
  admission: ReturnType<typeof createAdmission>;
  /** Unix milliseconds; tests move it. */
  now: () => number;
};
