import type { PublicClient } from "viem";
import type { Deployment } from "../../../config/deployment.ts";
import type { PoolIndex } from "../../../liquidity/pool-index/pool-index.ts";
import type { createAdmission } from "../../../quote/admission.ts";
import type { QuoteRequest, QuoteResult } from "../../../quote/quote-types.ts";
import type { createFixtures } from "../../../simulation/fixtures.ts";
import type { Db } from "../../../store/schema.ts";

/** Everything the builder endpoints need, passed in (no singletons): tests build it against anvil + PGlite. */
export type BuilderApiDeps = {
  db: Db;
  client: PublicClient;
  deployment: Deployment;
  /** Pools known to the service (token pool counts; the quoter's own index). */
  index: PoolIndex;
  /** The comparison pipeline shared with the public quote (src/quote). */
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  /** Balance/allowance state overrides for simulations (shared with the quoter: slot layouts are cached). */
  fixtures: ReturnType<typeof createFixtures>;
  /** Service capacity for builder quotes (per process, apart from the public quote's). */
  admission: ReturnType<typeof createAdmission>;
  /** Signs history cursors (HMAC key, at least 32 bytes); stable across the processes of one deployment. */
  cursorSecret: Uint8Array;
  /** Unix milliseconds; tests move it. */
  now: () => number;
};
