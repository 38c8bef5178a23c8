import type { PublicClient } from "viem";
import type { Deployment } from "../../../config/deployment.ts";
import type { PoolIndex } from "../../../liquidity/pool-index/pool-index.ts";
import type { createAdmission } from "../../../quote/admission.ts";
import type { QuoteRequest, QuoteResult } from "../../../quote/quote-types.ts";
import type { createFixtures } from "../../../simulation/fixtures.ts";
import type { Db } from "../../../store/schema.ts";

/** Everything the partner endpoints need, passed in (no singletons). */
export type PartnerApiDeps = {
  /** Partner keys and their per-key rates (src/api/partner-access.ts). */
  db: Db;
  client: PublicClient;
  deployment: Deployment;
  /** Token pool counts (the quoter's own index). */
  index: PoolIndex;
  /** The comparison pipeline shared with the public and builder quotes (src/quote). */
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  /** Balance/allowance state overrides (shared with the quoter: slot layouts are cached). */
  fixtures: ReturnType<typeof createFixtures>;
  /** The partner API's own per-process capacity, apart from the public and builder quotes'. */
  admission: ReturnType<typeof createAdmission>;
  /** Unix milliseconds; tests move it. */
  now: () => number;
};
