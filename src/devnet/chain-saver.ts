import { renameSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Hex } from "viem";

/** How often a persisted devnet saves an idle chain (only when a block was added since): empty blocks. */
export const SAVE_INTERVAL_MS = 30_000;
/** How often the saver looks for new blocks carrying transactions. */
export const WATCH_INTERVAL_MS = 100;
/**
 * How long after the first unsaved block with transactions its save starts: blocks mined meanwhile join
 * the same save. Counted from the first block, not the last, so a steady stream still gets saved.
 */
export const SAVE_DELAY_MS = 300;
/**
 * The least time between the end of one save and the start of the next: a save keeps anvil busy for about
 * a second on the seeded chain, so under a steady stream of transactions back-to-back saves would slow it
 * down most of the time (`npm run bench -- save`).
 */
export const SAVE_GAP_MS = 1_000;
/** Past this many new blocks at once (anvil_mine), the saver saves without counting their transactions. */
const MAX_BLOCKS_INSPECTED = 32;

/** What the saver needs of the devnet's node. */
export type SaverClient = {
  getBlockNumber: () => Promise<bigint>;
  getBlockTransactionCount: (args: { blockNumber: bigint }) => Promise<number>;
  dumpState: () => Promise<Hex>;
};

export type ChainSaver = {
  /** Stops saving in the background, waits for a save in flight, then saves once more. Idempotent. */
  stop: () => Promise<void>;
};

/**
 * Keeps `statePath` close to the running chain, so a crash (kill -9, power loss) loses no transaction mined
 * more than a few seconds ago (docs/operating.md, "The data dir"): a block carrying transactions is saved SAVE_DELAY_MS
 * after the saver sees it (it looks every WATCH_INTERVAL_MS), and no sooner than SAVE_GAP_MS after the
 * previous save ended; a chain adding only empty blocks is saved every SAVE_INTERVAL_MS. One save at a
 * time; blocks that arrive during a save get the next one.
 */
export function startChainSaver(options: {
  client: SaverClient;
  statePath: string;
  onError: (message: string) => void;
}): ChainSaver {
  const { client, statePath, onError } = options;
  let saving: Promise<void> | undefined;
  /** The head when the last save began (its state holds at least that block). */
  let savedAt: bigint | undefined;
  /** The last head the watcher saw. */
  let seen: bigint | undefined;
  /** A block with transactions was seen since the last save began. */
  let dirty = false;
  let delayed: NodeJS.Timeout | undefined;
  let lastEnded = 0;
  let stopped = false;

  const save = (why: string) => {
    if (saving || stopped) return;
    saving = (async () => {
      const head = await client.getBlockNumber();
      if (head === savedAt && !dirty) return;
      // Reset before the dump: a block seen from now on may be missing from it, and gets the next save.
      dirty = false;
      await saveState(client, statePath);
      savedAt = head;
    })()
      .catch((error: unknown) => onError(`${why} chain save failed: ${(error as Error).message}`))
      .finally(() => {
        saving = undefined;
        lastEnded = Date.now();
        if (dirty) schedule();
      });
  };
  const schedule = () => {
    if (delayed || stopped) return;
    const wait = Math.max(SAVE_DELAY_MS, lastEnded + SAVE_GAP_MS - Date.now());
    delayed = setTimeout(() => {
      delayed = undefined;
      save("transaction");
    }, wait);
  };

  let watchFailures = 0;
  const watch = async () => {
    try {
      const head = await client.getBlockNumber();
      seen ??= head;
      savedAt ??= head;
      // A head going back (evm_revert) or jumping far changed the state in ways not worth inspecting.
      if (head < seen || head - seen > MAX_BLOCKS_INSPECTED) dirty = true;
      for (let block = seen + 1n; block <= head && !dirty; block++)
        if ((await client.getBlockTransactionCount({ blockNumber: block })) > 0) dirty = true;
      seen = head;
      watchFailures = 0;
      if (dirty) schedule();
    } catch (error) {
      if (watchFailures++ === 0) onError(`watching the chain for saves failed: ${(error as Error).message}`);
    }
    if (!stopped) watcher = setTimeout(watch, WATCH_INTERVAL_MS).unref();
  };
  let watcher: NodeJS.Timeout | undefined = setTimeout(watch, 0).unref();
  const idle = setInterval(() => save("periodic"), SAVE_INTERVAL_MS).unref();

  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(watcher);
        clearTimeout(delayed);
        clearInterval(idle);
        await saving;
        await saveState(client, statePath).catch(() => {});
      })();
      return stopping;
    },
  };
}

/**
 * Saves the chain as the plain JSON state file `anvil --load-state` reads. anvil_dumpState returns it
 * gzipped; loading goes through the command line because anvil refuses multi-megabyte RPC requests.
 * Written to a temporary file and renamed, so a crash never leaves half a file.
 */
export async function saveState(client: Pick<SaverClient, "dumpState">, statePath: string): Promise<void> {
  const state = gunzipSync(Buffer.from((await client.dumpState()).slice(2), "hex"));
  writeFileSync(`${statePath}.tmp`, state);
  renameSync(`${statePath}.tmp`, statePath);
}
