import type { Address } from "viem";
import { kindOf, kindOfLog, type PoolKindName } from "../pool-kinds.ts";
import type { PoolSnapshot } from "../read/load-pool-states.ts";
import type { FollowedLog, PoolEvent } from "./pool-event.ts";

/**
 * The pool a log is about (its `poolRef`), its kind and what it does, or undefined for a log of no pool we
 * could follow (a V4 event from another contract than `poolManager`). The kind is the one whose event the
 * log is; V2 and V3 logs are keyed by the emitting address, and whether that is a followed pool of that
 * kind is the caller's check.
 */
export function poolEventOf(
  log: FollowedLog,
  poolManager: Address | undefined,
): { key: string; kind: PoolKindName; event: PoolEvent } | undefined {
  const kind = kindOfLog(log);
  if (!kind) return undefined;
  const found = kindOf({ kind }).eventOf(log, poolManager);
  return found && { ...found, kind };
}

/**
 * The pool's state after `events` (in log order), the events of block `blockNumber`, with its kind's own
 * arithmetic (`PoolKind.applyEvents`). Throws `UnfollowableError` for an event the kind cannot apply.
 * Never mutates `state`.
 */
export function applyEvents(
  state: PoolSnapshot,
  events: readonly PoolEvent[],
  blockNumber: bigint,
): PoolSnapshot {
  return { ...kindOf(state).applyEvents(state, events), blockNumber };
}
