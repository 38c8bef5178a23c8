import type { Address, PublicClient } from "viem";
import { type IndexedPool, poolRef } from "../pool-index/pool.ts";
import { kindOf } from "../pool-kinds.ts";
import { loadPoolStates, type PoolSnapshot } from "../read/load-pool-states.ts";
import type { StateHint } from "../read/state-hints.ts";
import type { BlockJournal } from "./block-journal.ts";
import { snapshotOf } from "./followed-pool.ts";
import { snapshotDifference } from "./same-snapshot.ts";

/**
 * Checks `count` followed pools, in rotation, against a direct read at the block before the applied head,
 * and reports each that differs (`onMismatch`) once that block is confirmed still canonical (a reorg since
 * would make any pool differ). Returns how many differed. A pool whose price left its held window is not
 * compared: quotes already read it directly.
 *
 * Not the head itself: a node answering a read at its newest block while it mines the next can answer with
 * the next block's state. On anvil under load (a block every 2 s, 40 transactions every 20 ms) reads at the
 * head differed from the followed state 192 times in a minute, on pools whose state the same read repeated
 * seconds later matched exactly; reads one block below never did (followed-state.devnet.test.ts).
 */
export async function checkSample(
  deps: {
    client: Pick<PublicClient, "call" | "readContract" | "getBlock">;
    journal: BlockJournal;
    pools: ReadonlyMap<string, IndexedPool>;
    /** The held pools the index has, in a stable order (the rotation walks it). */
    keys: readonly string[];
    sampling: { next: number };
    poolManager: Address | undefined;
    count: number;
  },
  onMismatch: (key: string, pool: IndexedPool, field: string) => void,
): Promise<number> {
  const { client, journal, pools, keys, sampling } = deps;
  const newest = journal.head();
  const head = newest && journal.block(newest.parentHash);
  if (!head || keys.length === 0 || deps.count <= 0) return 0;
  const picked: string[] = [];
  for (let i = 0; i < Math.min(deps.count, keys.length); i++)
    picked.push(keys[(sampling.next + i) % keys.length]!);
  sampling.next = (sampling.next + picked.length) % keys.length;
  const sampled: { key: string; pool: IndexedPool; followed: PoolSnapshot }[] = [];
  for (const key of picked) {
    const pool = pools.get(key)!;
    const state = journal.stateAt(key, head.hash);
    const followed = state && snapshotOf(state, head.number);
    if (followed) sampled.push({ key, pool, followed });
  }
  if (sampled.length === 0) return 0;
  // What the followed state holds tells the read where the price and the initialized ticks are: one round.
  const hints = new Map<string, StateHint>();
  for (const { followed } of sampled) {
    const kind = kindOf(followed);
    const hint = kind.hintOf(kind.firstRead?.(followed) ?? followed);
    if (hint) hints.set(poolRef(followed), hint);
  }
  const { pools: loads } = await loadPoolStates(
    client,
    sampled.map(({ pool }) => pool),
    {
      blockNumber: head.number,
      hints,
      ...(deps.poolManager ? { v4PoolManager: deps.poolManager } : {}),
    },
  );
  const differing: { key: string; pool: IndexedPool; field: string }[] = [];
  loads.forEach((load, i) => {
    const { key, pool, followed } = sampled[i]!;
    const field =
      load.status === "loaded" ? snapshotDifference(followed, load.snapshot) : `unreadable (${load.reason})`;
    if (field) differing.push({ key, pool, field });
  });
  if (differing.length === 0) return 0;
  const canonical = await client.getBlock({ blockNumber: head.number });
  if (canonical.hash !== head.hash || journal.head()?.hash !== newest.hash) return 0;
  for (const { key, pool, field } of differing) onMismatch(key, pool, field);
  return differing.length;
}
