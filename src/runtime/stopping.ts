import type { ServerType } from "@hono/node-server";
import type { Lifecycle, Readiness } from "../api/lifecycle.ts";
import { closeGracefully } from "./close-gracefully.ts";

/** How long in-flight requests may finish once the listeners close, before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The service's lifecycle and its stop sequence (docs/rules.md, ours: shutdown): readiness turns 503 and
 * every answer closes its connection (`leaveLoadBalancer`) while the process keeps serving for the drain
 * period, so a load balancer polling /readyz sees it go before anything is refused; then new requests are
 * refused, the listeners stop accepting connections, and in-flight requests get SHUTDOWN_GRACE_MS to
 * finish before theirs are cut (`closeListeners`). While serving, readiness is the database's answer,
 * then the pool index's.
 */
export function createStopping(deps: {
  servers: readonly ServerType[];
  /** Whether the database answers (see watchDatabase). */
  databaseAnswers: () => Promise<boolean>;
  /** The pool index's part of readiness. */
  indexReadiness: () => Readiness;
  /** What the node lacks of what Junction uses (said beside readiness, not a reason to be unready). */
  nodeLacks?: () => string[];
  progress: (line: string) => void;
}) {
  let leaving = false;
  let closing = false;
  const lifecycle: Lifecycle = {
    leaving: () => leaving,
    closing: () => closing,
    ...(deps.nodeLacks ? { nodeLacks: deps.nodeLacks } : {}),
    readiness: async () => {
      if (leaving) return { ready: false, reason: "stopping" };
      if (!(await deps.databaseAnswers())) return { ready: false, reason: "database-unavailable" };
      return deps.indexReadiness();
    },
  };
  return {
    lifecycle,
    /** Turns not ready and keeps serving for `drainMs` (none when no listener was open). */
    async leaveLoadBalancer(drainMs: number): Promise<void> {
      leaving = true;
      if (deps.servers.length === 0 || drainMs === 0) return;
      deps.progress(`not ready; serving ${drainMs} ms more before closing`);
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    },
    /** Refuses new requests and closes the listeners once in-flight requests finish (or are cut). */
    async closeListeners(): Promise<void> {
      closing = true;
      await Promise.all(deps.servers.map((server) => closeGracefully(server, SHUTDOWN_GRACE_MS)));
    },
  };
}
