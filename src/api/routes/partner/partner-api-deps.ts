import type { QuotingDeps } from "../quoting-deps.ts";

/** Everything the partner endpoints need (partner keys and their per-key rates live in `db`). */
export type PartnerApiDeps = QuotingDeps;
