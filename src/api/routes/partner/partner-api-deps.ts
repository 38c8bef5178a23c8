import type { Context, MiddlewareHandler } from "hono";
import type { PublicClient } from "viem";
import type { Deployment } from "../../../config/deployment.ts";
import type { PoolIndex } from "../../../liquidity/pool-index/pool-index.ts";
import type { createAdmission } from "../../../quote/admission.ts";
import type { QuoteRequest, QuoteResult } from "../../../quote/quote-types.ts";
import type { createFixtures } from "../../../simulation/fixtures.ts";

/** The partner key a request was authenticated with. */
export type PartnerPrincipal = { keyId: string; name: string; swap: boolean };

export type PartnerVariables = { partner: PartnerPrincipal; requestId: string };

/**
 * The bearer-key gate of the partner API (docs/rules.md, auth rule 7): `access` answers 401 for a missing,
 * malformed, expired or revoked key and sets `c.var.partner`; `charge` spends the key's rate limit once the
 * request is valid and admitted (429 with Retry-After).
 */
export type PartnerGate = {
  access: MiddlewareHandler<{ Variables: PartnerVariables }>;
  charge: (c: Context) => Promise<void>;
};

/** Everything the partner endpoints need, passed in (no singletons). */
export type PartnerApiDeps = {
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
  gate: PartnerGate;
  /** Unix milliseconds; tests move it. */
  now: () => number;
};
