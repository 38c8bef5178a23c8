import type { PoolIndex } from "./pool-index.ts";

/** One step of a follower that succeeded: the node's head then, and when it was read (ms since the epoch). */
export type FollowedStep = { head: bigint; at: number };

/**
 * Keeps an index at the chain tip: every `intervalMs`, one step at a time, it syncs from the chain when
 * this process is the indexer (`isIndexer`, default always) and otherwise refreshes from what the indexer
 * saved, then reads the node's head (`readHead`), so a reader knows how far behind the chain its index is.
 * A failed step (an RPC or database hiccup) is reported and retried on the next tick; it never stops the
 * follower.
 */
export function followChain(
  index: PoolIndex,
  options: {
    intervalMs: number;
    onError: (error: unknown) => void;
    /** After a step that succeeded, with the head it saw (a reader without `readHead` sees none). */
    onSynced?: (step: FollowedStep | undefined) => void;
    /** Asked before every step: whether this process indexes the chain (see src/runtime/indexer-role.ts). */
    isIndexer?: () => Promise<boolean>;
    /** The node's head, read by a reader after each refresh. */
    readHead?: () => Promise<bigint>;
    now?: () => number;
  },
): { stop: () => Promise<void> } {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const now = options.now ?? Date.now;
  const step = async (): Promise<FollowedStep | undefined> => {
    const at = now();
    // A sync reads the head first and reaches it.
    if (await (options.isIndexer?.() ?? true)) return { head: (await index.sync()).to, at };
    await index.refresh();
    if (!options.readHead) return undefined;
    const readAt = now();
    return { head: await options.readHead(), at: readAt };
  };
  const tick = () => {
    if (stopped) return;
    current = step().then(
      (followed) => options.onSynced?.(followed),
      (error) => options.onError(error),
    );
    current.finally(() => {
      if (!stopped) timer = setTimeout(tick, options.intervalMs);
    });
  };
  let timer = setTimeout(tick, options.intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
