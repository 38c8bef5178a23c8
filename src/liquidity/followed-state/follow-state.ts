import type { AbiEvent, Address, Block, Hex, Log, PublicClient } from "viem";
import { createEventDecoder } from "../../chain/event-decoder.ts";
import { oneAtATime } from "../../chain/one-at-a-time.ts";
import { UpstreamUnavailableError } from "../../chain/upstream-error.ts";
import { type IndexedPool, isRoutable, poolRef } from "../pool-index/pool.ts";
import { FOLLOWED_EVENTS } from "../pool-kinds.ts";
import { type AdoptionProgress, createAdoption } from "./adopt-pools.ts";
import { applyEvents, poolEventOf } from "./apply-events.ts";
import { type AppliedBlock, BlockJournal } from "./block-journal.ts";
import { type FollowHeadsOptions, followHeads } from "./follow-heads.ts";
import { outgrown } from "./followed-pool.ts";
import { createFollowedSource, type FollowedSource } from "./followed-source.ts";
import type { FollowedLog, PoolEvent } from "./pool-event.ts";
import { checkSample } from "./sample-check.ts";

export type FollowedStateOptions = {
  client: Pick<PublicClient, "getBlock" | "getGasPrice" | "request" | "call" | "readContract">;
  /** The pools to follow: the index's (excluded V4 pools are never followed). */
  pools: () => readonly IndexedPool[];
  poolManager?: Address;
  /**
   * Contracts whose every state change logs one of `events` (the builder registry): each block's logs of
   * theirs come in the same `eth_getLogs` as its pool events, so `unchangedSince` can tell that their state
   * at one block is their state at another.
   */
  watch?: { addresses: readonly Address[]; events: readonly AbiEvent[] };
  /**
   * Other logs the chain's per-block tasks want (the factories' creations, the collector's settlements):
   * read in the same `eth_getLogs` as the pool events, and handed with every log of the step's new blocks
   * to `onBlocks` once they are applied (docs/architecture.md, "The head follower").
   */
  observe?: { events: readonly AbiEvent[]; onBlocks: (step: ObservedStep) => void };
  /** Blocks kept to rewind a reorg (default 64). */
  depth?: number;
  /** Blocks a step walks back from the head to reach an applied one before reading everything anew (16). */
  maxCatchUp?: number;
  /**
   * Followed pools checked against a direct read each block that moved a pool, and every
   * `IDLE_SAMPLE_EVERY`th block otherwise (default 4).
   */
  samplesPerBlock?: number;
  /** How long after the follower last saw the node's head its state may still serve a quote (ms). */
  staleAfterMs: number;
  /** Blocks before a pool that failed to read is tried again (default 32). */
  retryAfterBlocks?: number;
  /**
   * Pools not followed yet (at start, all of them) are read in chunks of `adoptChunk` (default 250), one
   * chunk and more until a step has spent `adoptBudgetMs` (default 400) reading: the next step goes on where
   * it stopped, so a large index is taken in over several blocks while each block is still applied on time.
   */
  adoptChunk?: number;
  adoptBudgetMs?: number;
  /** After each step that read pools in (adopt-pools.ts). */
  onAdopted?: (progress: AdoptionProgress) => void;
  now?: () => number;
  /** A sampled pool whose followed state differed from a direct read (it falls back to reads). */
  onMismatch?: (pool: IndexedPool, field: string) => void;
};

/** A block without pool events is sampled when its number is a multiple of this. */
export const IDLE_SAMPLE_EVERY = 8n;

export type { FollowedQuoteBlock, FollowedSource } from "./followed-source.ts";
export type { AdoptionProgress };

/** What a step did: nothing new, new blocks applied (after undoing a reorg's), or every pool read anew. */
export type StepOutcome = {
  kind: "unchanged" | "applied" | "rewound" | "reread";
  head: bigint;
  blocks: number;
  /** Pool events applied. */
  events: number;
  adopted: number;
  mismatched: number;
};

/** A block a step applied, with every log its `eth_getLogs` returned (pool, watched and observed events). */
export type ObservedBlock = { number: bigint; hash: Hex; parentHash: Hex; logs: readonly Log[] };

/**
 * What a step hands the per-block tasks: its outcome, the node's head, and the blocks it applied in order
 * (none for `unchanged`, a rollback alone or a `reread`, which read no logs: a task then reads for itself).
 */
export type ObservedStep = {
  kind: StepOutcome["kind"];
  head: { number: bigint; hash: Hex };
  blocks: ObservedBlock[];
  /** A watched contract (the registry) logged in one of `blocks`. */
  watched: boolean;
};

/**
 * Pool state that follows the chain (docs/rules.md, comparison rule 14): every step reads the node's head;
 * a new one it walks parent hashes back to the newest block it applied (undoing blocks a reorg took back),
 * fetches each new block's pool events by block hash (`eth_getLogs`, all pools at once, with the watched
 * and observed contracts' logs) beside the node's gas price suggestion, applies them with the pools' own
 * arithmetic and hands the blocks to the observer (the chain's other per-block tasks). A head it cannot
 * connect within `maxCatchUp` blocks makes it read every pool anew at the head; a pool it cannot follow exactly (an event it cannot apply, a price past its held
 * window, a sampled mismatch, a fresh pool) is read directly by quotes until the follower reads it again.
 * A failed step changes nothing; a follower that has not seen the head within `staleAfterMs`, or is more
 * than one block behind it, offers no quote block, and quotes pin and read as without it.
 */
export function createFollowedState(options: FollowedStateOptions) {
  const { client, poolManager } = options;
  const now = options.now ?? Date.now;
  const journal = new BlockJournal(options.depth ?? 64);
  const maxCatchUp = options.maxCatchUp ?? 16;
  /** Pools a sample found wrong: read directly for the life of the process. */
  const distrusted = new Set<string>();
  const sampling = { next: 0 };
  let seen: { number: bigint; at: number } | undefined;
  // One step at a time: a caller's step queues behind the running one.
  const queue = oneAtATime();
  // Selectors computed once: viem's `getLogs({ events })` hashes every event's signature on each call.
  const logEvents = createEventDecoder([
    ...new Set([...FOLLOWED_EVENTS, ...(options.watch?.events ?? []), ...(options.observe?.events ?? [])]),
  ]);
  const poolEventNames = new Set<string>(FOLLOWED_EVENTS.map((event) => event.name));
  const watchedAddresses = new Set(options.watch?.addresses.map((address) => address.toLowerCase()));
  const adoption = createAdoption({
    client,
    journal,
    poolManager,
    distrusted,
    retryAfterBlocks: BigInt(options.retryAfterBlocks ?? 32),
    chunk: options.adoptChunk ?? 250,
    budgetMs: options.adoptBudgetMs ?? 400,
    now,
    onAdopted: options.onAdopted,
  });
  const source = createFollowedSource({
    journal,
    distrusted,
    readAgain: adoption.readAgain,
    lastSeen: () => seen,
    staleAfterMs: options.staleAfterMs,
    now,
  });

  // A step's own work grows with the block's events, not with the pools: what lists every pool is kept
  // until the index or the held set changes (the index hands out the same array until it changes).
  let keyed: { from: readonly IndexedPool[]; map: Map<string, IndexedPool> } | undefined;
  const byKey = () => {
    const pools = options.pools();
    if (keyed?.from !== pools) {
      const map = new Map<string, IndexedPool>();
      for (const pool of pools) if (isRoutable(pool)) map.set(poolRef(pool), pool);
      keyed = { from: pools, map };
    }
    return keyed.map;
  };
  /** The held pools the index still has, for sampling: listed again only when either changed. */
  let sampleable: { pools: Map<string, IndexedPool>; membership: number; keys: string[] } | undefined;
  const sampleKeys = (pools: Map<string, IndexedPool>) => {
    if (sampleable?.pools !== pools || sampleable.membership !== journal.membership)
      sampleable = {
        pools,
        membership: journal.membership,
        keys: [...journal.keys()].filter((key) => pools.has(key)),
      };
    return sampleable.keys;
  };

  async function step(): Promise<StepOutcome> {
    // The head alone while it stands still; its gas price suggestion is read with a new head's logs.
    const head = await client.getBlock({ blockTag: "latest" });
    if (head.number === null || head.hash === null) throw new UpstreamUnavailableError("block-pending");
    seen = { number: head.number, at: now() };
    const pools = byKey();
    const applied = journal.head();
    let kind: StepOutcome["kind"] = "unchanged";
    let blocks = 0;
    let events = 0;
    const observed: ObservedBlock[] = [];
    let watchedLogged = false;
    if (applied?.hash !== head.hash) {
      if (journal.has(head.hash)) {
        // The node's head is one we applied before: a rollback (or a node behind us) keeps that block.
        journal.rewindTo(head.hash);
        kind = "rewound";
      } else {
        const suggested = client.getGasPrice().catch(() => 0n);
        const chain = await chainTo(head);
        if (chain) {
          const [suggestion, logs] = await Promise.all([
            suggested,
            Promise.all(chain.blocks.map((block) => blockLogs(block.hash!))),
          ]);
          kind = chain.ancestor === applied!.hash ? "applied" : "rewound";
          journal.rewindTo(chain.ancestor);
          chain.blocks.forEach((block, i) => {
            const { pool, watched, all } = logs[i]!;
            const epoch = watched ? block.hash! : journal.head()!.epoch;
            events += applyBlock(applied_(block, suggestion, epoch), pool, pools);
            observed.push({
              number: block.number!,
              hash: block.hash!,
              parentHash: block.parentHash,
              logs: all,
            });
            watchedLogged ||= watched;
          });
          blocks = chain.blocks.length;
        } else {
          journal.reset();
          adoption.forgetFailures();
          journal.begin(applied_(head, await suggested, head.hash));
          kind = "reread";
        }
      }
    }
    options.observe?.onBlocks({
      kind,
      head: { number: head.number, hash: head.hash },
      blocks: observed,
      watched: watchedLogged,
    });
    const adopted = await adoption.adopt(pools);
    // Sampling checks our arithmetic, which only events exercise; a block without them is sampled now
    // and then for changes no event told of, so an idle block costs the head, the gas price and its logs.
    const sampled = blocks > 0 && (events > 0 || head.number % IDLE_SAMPLE_EVERY === 0n);
    const mismatched = await checkSample(
      {
        client,
        journal,
        pools,
        keys: sampleKeys(pools),
        sampling,
        poolManager,
        count: sampled ? (options.samplesPerBlock ?? 4) : 0,
      },
      (key, pool, field) => {
        distrusted.add(key);
        journal.set(key, undefined);
        options.onMismatch?.(pool, field);
      },
    );
    return { kind, head: head.number, blocks, events, adopted, mismatched };
  }

  /**
   * Block `hash`'s logs: its pool events, whether a watched contract logged in it, and all of them (for
   * the observer): one `eth_getLogs`.
   */
  async function blockLogs(hash: Hex): Promise<{ pool: FollowedLog[]; watched: boolean; all: Log[] }> {
    const raw = await client.request({
      method: "eth_getLogs",
      params: [{ blockHash: hash, topics: logEvents.topics }],
    });
    const all: Log[] = logEvents.decode(raw);
    let watched = false;
    const pool: FollowedLog[] = [];
    for (const log of all) {
      if (watchedAddresses.has(log.address.toLowerCase())) watched = true;
      else if (poolEventNames.has((log as FollowedLog).eventName)) pool.push(log as FollowedLog);
    }
    return { pool, watched, all };
  }

  /** The blocks from the newest applied ancestor of `head` up to it, or undefined when none is near. */
  async function chainTo(head: Block): Promise<{ ancestor: Hex; blocks: Block[] } | undefined> {
    if (!journal.head()) return undefined;
    const blocks = [head];
    let cursor = head;
    while (!journal.has(cursor.parentHash)) {
      if (blocks.length > maxCatchUp || cursor.number === 0n) return undefined;
      cursor = await client.getBlock({ blockHash: cursor.parentHash });
      blocks.unshift(cursor);
    }
    return { ancestor: cursor.parentHash, blocks };
  }

  /** Applies one block's logs to the pools they are about; returns how many events were applied. */
  function applyBlock(block: AppliedBlock, logs: FollowedLog[], pools: Map<string, IndexedPool>): number {
    let applied = 0;
    journal.begin(block);
    const events = new Map<string, { kind: string; events: PoolEvent[] }>();
    for (const log of [...logs].sort((a, b) => a.logIndex - b.logIndex)) {
      const found = poolEventOf(log, poolManager);
      if (!found || !journal.latest(found.key)) continue;
      const entry = events.get(found.key) ?? { kind: found.kind, events: [] };
      entry.events.push(found.event);
      events.set(found.key, entry);
    }
    for (const [key, { kind, events: list }] of events) {
      const state = journal.latest(key)!;
      const pool = pools.get(key);
      try {
        if (!pool || pool.kind !== kind || state.kind !== kind) throw new RangeError("not this kind of pool");
        const next = applyEvents(state, list, block.number);
        journal.set(key, next);
        applied += list.length;
        // Its price left the held words: read it around the new price in this step (adopt-pools.ts), not on a
        // quote's first ask, which would cost that quote a round trip of its own.
        if (outgrown(next)) adoption.readAgain(key);
      } catch {
        // Not followable through this block: quotes read it directly until the next step reads it anew.
        journal.set(key, undefined);
      }
    }
    return applied;
  }

  const queued = () => queue(step);

  return {
    step: queued,
    ...source,
    /** The newest block applied. */
    head: () => journal.head(),
    /** Followed pools, for metrics and the memory bench. */
    followed: () => journal.size,
    /** Pools read directly because a sample found them wrong. */
    distrusted: () => distrusted.size,
    /**
     * Steps as the node's heads come (follow-heads.ts): at each head its subscription announces, or after
     * `pollMs` of quiet without one; a failed step is reported and retried. Freshness is still judged from
     * when a step last saw the head (`staleAfterMs`).
     */
    start(options: FollowHeadsOptions) {
      const follower = followHeads(queued, options);
      return {
        mode: follower.mode,
        stop: async () => {
          await follower.stop();
          await queue.idle();
        },
      };
    },
  } satisfies FollowedSource & Record<string, unknown>;

  function applied_(block: Block, gasSuggestion: bigint, epoch: Hex): AppliedBlock {
    return {
      epoch,
      number: block.number!,
      hash: block.hash!,
      parentHash: block.parentHash,
      timestamp: block.timestamp,
      baseFeePerGas: block.baseFeePerGas ?? null,
      gasSuggestion,
    };
  }
}

export type FollowedState = ReturnType<typeof createFollowedState>;
