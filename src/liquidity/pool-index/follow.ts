import type { PoolIndex } from "./pool-index.ts";

/**
 * Keeps an index at the chain tip: every `intervalMs`, one step at a time, it syncs from the chain when
 * this process is the indexer (`isIndexer`, default always) and otherwise refreshes from what the indexer
 * saved. A failed step (an RPC or database hiccup) is reported and retried on the next tick; it never stops
 * the follower.
 */
export function followChain(
  index: PoolIndex,
  options: {
    intervalMs: number;
    onError: (error: unknown) => void;
    onSynced?: () => void;
    /** Asked before every step: whether this process indexes the chain (see src/service/indexer-role.ts). */
    isIndexer?: () => Promise<boolean>;
  },
): { stop: () => Promise<void> } {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const step = async () => ((await (options.isIndexer?.() ?? true)) ? index.sync() : index.refresh());
  const tick = () => {
    if (stopped) return;
    current = step().then(
      () => options.onSynced?.(),
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
