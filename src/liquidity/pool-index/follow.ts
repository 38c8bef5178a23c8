import type { PoolIndex } from "./pool-index.ts";

/**
 * Keeps an index at the chain tip: syncs every `intervalMs`, one sync at a time. A failed sync (an RPC
 * hiccup) is reported and retried on the next tick; it never stops the follower.
 */
export function followChain(
  index: PoolIndex,
  options: { intervalMs: number; onError: (error: unknown) => void; onSynced?: () => void },
): { stop: () => Promise<void> } {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    current = index.sync().then(
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
