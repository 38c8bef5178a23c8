import { type Anvil, startAnvil } from "../../src/devnet/anvil.ts";

/** One block holds hundreds of pool creations (a V3 pool and its mints cost about 6M gas). */
export const BLOCK_GAS_LIMIT = 3_000_000_000n;
/** ETH per dev account: the builder wraps a great deal of it for the WETH pools. */
const BALANCE_ETH = 1_000_000_000;
/** Loading a state of a gigabyte or more takes a while. */
const LISTEN_TIMEOUT_SECONDS = 600;

/**
 * anvil as the devnet starts it (chain 4663, behind the guard process so no node outlives the benchmark),
 * with a raised block gas limit and first-in-first-out ordering: a block's transactions run in the order
 * they were sent, whatever their sender. With `dumpState`, stopping it writes the state file and waits for it.
 */
export function startScaleAnvil(options: {
  loadState?: string;
  dumpState?: string;
  forkUrl?: string;
  pruneHistory?: number;
}): Promise<Anvil> {
  return startAnvil({
    ...options,
    balance: BALANCE_ETH,
    gasLimit: BLOCK_GAS_LIMIT,
    order: "fifo",
    listenTimeoutSeconds: LISTEN_TIMEOUT_SECONDS,
  });
}
