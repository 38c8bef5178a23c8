import type { SettlementIndexReader } from "../../../builders/history.ts";
import type { QuotingDeps } from "../quoting-deps.ts";
import type { EventStreamDeps } from "./events.ts";

/** Everything the builder endpoints need: the quoting deps and the history cursors' key. */
export type BuilderApiDeps = QuotingDeps & {
  /** Signs history cursors (HMAC key, at least 32 bytes); stable across the processes of one deployment. */
  cursorSecret: Uint8Array;
  /** The settlement index history reads for the range it covers; absent, history reads only the chain. */
  settlementIndex?: SettlementIndexReader;
  /** The settlement event stream; absent, `GET /api/v2/builders/events` is not served. */
  events?: EventStreamDeps;
};
