import { type AbiEvent, type Hex, toEventSelector } from "viem";
import type { FollowedLog } from "./followed-state/pool-event.ts";
import type { PoolKind } from "./pool-kind.ts";
import { v2 } from "./v2/index.ts";
import { v3 } from "./v3/index.ts";
import { v4 } from "./v4/index.ts";

/** Every pool kind, by the `kind` its pools and states carry: a new kind is one more entry. */
export const poolKinds = { v2, v3, v4 };

export type PoolKindName = keyof typeof poolKinds;

/** A kind's pool (what identifies it for reading) and state types, read off its methods. */
type PoolOf<Kind> = Kind extends { loadJob: (pool: infer Pool, ...rest: never[]) => unknown } ? Pool : never;
type SnapshotOf<Kind> = Kind extends { exactIn: (snapshot: infer Snapshot, ...rest: never[]) => unknown }
  ? Snapshot
  : never;

/** A pool of any kind, as a read needs it: each kind's, so a new kind joins the union by its entry. */
export type PoolRef = PoolOf<(typeof poolKinds)[PoolKindName]>;
/** A pool's state, of any kind: what a read at a pinned block gives and what the head follower holds. */
export type PoolSnapshot = SnapshotOf<(typeof poolKinds)[PoolKindName]>;

/** A kind's methods over every kind's values: the registry pairs each value only with its own kind's. */
type AnyPoolKind = PoolKind<PoolRef, PoolSnapshot>;

/** The kind module of a pool or of its state. */
export function kindOf(value: { kind: PoolKindName }): AnyPoolKind {
  return poolKinds[value.kind] as unknown as AnyPoolKind;
}

/**
 * Every event by which a pool of a kind we follow changes what a swap reads: each kind's closed list
 * (`PoolKind.events`), read in one `eth_getLogs` per block.
 */
export const FOLLOWED_EVENTS: readonly AbiEvent[] = Object.values(poolKinds).flatMap<AbiEvent>(
  (kind) => kind.events,
);

/** Which kind emits each followed event, by its signature (V3's and V4's Swap and Initialize share names). */
const kindByTopic = new Map<Hex, PoolKindName>(
  (Object.keys(poolKinds) as PoolKindName[]).flatMap((name) =>
    poolKinds[name].events.map((event) => [toEventSelector(event), name] as const),
  ),
);

/** The kind whose event a log is, or undefined for a log of none of `FOLLOWED_EVENTS`. */
export function kindOfLog(log: FollowedLog): PoolKindName | undefined {
  const topic = log.topics[0];
  return topic === undefined ? undefined : kindByTopic.get(topic);
}
