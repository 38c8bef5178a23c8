import { renameSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Hex } from "viem";

/** How often a persisted devnet saves its chain while running (only when a block was added since). */
export const SAVE_INTERVAL_MS = 30_000;

/** What the saver needs of the devnet's node. */
export type SaverClient = {
  getBlockNumber: () => Promise<bigint>;
  dumpState: () => Promise<Hex>;
};

export type ChainSaver = {
  /** Stops saving in the background, waits for a save in flight, then saves once more. Idempotent. */
  stop: () => Promise<void>;
};

/**
 * Keeps `statePath` close to the running chain, so a crash (kill -9, power loss) loses at most
 * SAVE_INTERVAL_MS of it: saves every SAVE_INTERVAL_MS when a block was added since, one save at a time.
 */
export function startChainSaver(options: {
  client: SaverClient;
  statePath: string;
  onError: (message: string) => void;
}): ChainSaver {
  const { client, statePath, onError } = options;
  let saving: Promise<void> | undefined;
  let savedAt: bigint | undefined;
  const saveIfMoved = async () => {
    const head = await client.getBlockNumber();
    if (head === savedAt) return;
    await saveState(client, statePath);
    savedAt = head;
  };
  const timer = setInterval(() => {
    saving ??= saveIfMoved()
      .catch((error: unknown) => onError(`periodic chain save failed: ${(error as Error).message}`))
      .finally(() => {
        saving = undefined;
      });
  }, SAVE_INTERVAL_MS);
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        clearInterval(timer);
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
