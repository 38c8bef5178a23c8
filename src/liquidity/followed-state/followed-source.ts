import type { Hex } from "viem";
import type { PinnedBlock } from "../../chain/pin-block.ts";
import { type IndexedPool, poolRef } from "../pool-index/pool.ts";
import { kindOf } from "../pool-kinds.ts";
import type { PoolSnapshot } from "../read/load-pool-states.ts";
import type { WordRange } from "../read/word-window.ts";
import type { BlockJournal } from "./block-journal.ts";
import { snapshotOf } from "./followed-pool.ts";

/** The quote block and its gas price (docs/rules.md, comparison rule 12), known without asking the node. */
export type FollowedQuoteBlock = { block: PinnedBlock; gasPrice: bigint };

/** What the quote pipeline asks of followed state. */
export type FollowedSource = {
  /** The newest applied block and its gas price, while fresh (`staleAfterMs`): the block a quote is exact at. */
  quoteBlock: () => FollowedQuoteBlock | undefined;
  /**
   * The newest applied block and its gas price however long ago the head was seen: for work that keeps
   * nothing it computes (the search warm-up on a chain that is quiet for a while, as an idle devnet).
   */
  newestBlock?: () => FollowedQuoteBlock | undefined;
  /** The pool at the block over `words` (default: the window a quote reads first), when held. */
  snapshotAt: (
    pool: IndexedPool,
    block: { number: bigint; hash: Hex },
    words?: WordRange,
  ) => PoolSnapshot | undefined;
  /**
   * For a retained block, the block since which the watched contracts logged nothing (its `epoch`): their
   * state at any block with the same answer is the same. Undefined for a block not retained.
   */
  unchangedSince: (block: { hash: Hex }) => Hex | undefined;
  /**
   * How much of its `side` token (0: token0, 1: token1) the pool holds at the newest applied block, in raw
   * units: V2's reserve, a concentrated pool's virtual reserve at its price (what its in-range liquidity
   * is worth there). Undefined for a pool not followed. For ranking pools, not for quoting.
   */
  depthOf?: (pool: IndexedPool, side: 0 | 1) => number | undefined;
};

export type FollowedSourceOptions = {
  journal: BlockJournal;
  /** Pools a sample found wrong: never served. */
  distrusted: ReadonlySet<string>;
  /** Asks the follower to read a pool anew in its next step (its price left the held words). */
  readAgain: (key: string) => void;
  /** The node's head as the follower last saw it, and when (`now()`'s clock). */
  lastSeen: () => { number: bigint; at: number } | undefined;
  staleAfterMs: number;
  now: () => number;
};

/**
 * The read side of followed state: what quotes ask of it, answered from the journal without a round trip.
 * It never changes the journal; the follower's step does (follow-state.ts).
 */
export function createFollowedSource(options: FollowedSourceOptions): Required<FollowedSource> {
  const { journal, distrusted, now } = options;

  function quoteBlock(): FollowedQuoteBlock | undefined {
    const head = journal.head();
    const seen = options.lastSeen();
    if (!head || !seen || now() - seen.at > options.staleAfterMs || head.number + 1n < seen.number)
      return undefined;
    return newestBlock();
  }

  function newestBlock(): FollowedQuoteBlock | undefined {
    const head = journal.head();
    if (!head) return undefined;
    const baseFee = head.baseFeePerGas ?? 0n;
    const gasPrice = head.gasSuggestion > baseFee ? head.gasSuggestion : baseFee;
    if (gasPrice <= 0n) return undefined;
    const { number, hash, timestamp, baseFeePerGas } = head;
    return { block: { number, hash, timestamp, baseFeePerGas }, gasPrice };
  }

  function snapshotAt(
    pool: IndexedPool,
    block: { number: bigint; hash: Hex },
    words?: WordRange,
  ): PoolSnapshot | undefined {
    const key = poolRef(pool);
    if (distrusted.has(key)) return undefined;
    const state = journal.stateAt(key, block.hash);
    if (!state) return undefined;
    const snapshot = state.kind === pool.kind ? snapshotOf(state, block.number, words) : undefined;
    // The price left the held words: read it again around the new price (a wide read past them is not).
    if (!snapshot && !words && journal.head()?.hash === block.hash) options.readAgain(key);
    return snapshot;
  }

  function depthOf(pool: IndexedPool, side: 0 | 1): number | undefined {
    const key = poolRef(pool);
    if (distrusted.has(key)) return undefined;
    const state = journal.latest(key);
    if (!state) return undefined;
    return kindOf(state).depthOf(state, side);
  }

  function unchangedSince(block: { hash: Hex }): Hex | undefined {
    return journal.block(block.hash)?.epoch;
  }

  return { quoteBlock, newestBlock, snapshotAt, unchangedSince, depthOf };
}
