import { type Address, zeroAddress } from "viem";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { createFixtures } from "../simulation/fixtures.ts";
import type { Logger } from "./logger.ts";

/** Tokens whose layouts are learned at once (background reads, paced behind quotes by the node pace). */
const CONCURRENCY = 4;

/**
 * Learns, in the background, where every indexed token keeps the synthetic caller's balance and its
 * allowance to the executor (simulation/fixtures.ts), so that no quote waits for it: a token's first quote
 * would otherwise spend two round trips finding them before it simulates. Runs once the index is built and
 * again every `intervalMs` for the tokens new pools bring; a token whose reads failed is tried again next
 * time; one that has no such slots (rebasing shares) is remembered as such. Logs each round that learned
 * anything.
 */
export function learnTokenLayouts(deps: {
  index: Pick<PoolIndex, "pools">;
  fixtures: Pick<ReturnType<typeof createFixtures>, "learn">;
  spender: Address;
  latestBlock: () => Promise<bigint>;
  logger: Pick<Logger, "info" | "warn">;
  intervalMs: number;
}): { done: () => Promise<void>; stop: () => void } {
  const known = new Set<string>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const round = async () => {
    const tokens = new Set<Address>();
    for (const pool of deps.index.pools())
      for (const token of [pool.token0, pool.token1])
        if (token !== zeroAddress && !known.has(token.toLowerCase())) tokens.add(token);
    if (tokens.size === 0) return;
    const started = Date.now();
    const block = await deps.latestBlock();
    const queue = [...tokens];
    let unsupported = 0;
    let failed = 0;
    const worker = async () => {
      for (let token = queue.shift(); token && !stopped; token = queue.shift()) {
        try {
          if ((await deps.fixtures.learn(token, deps.spender, block)) === "unsupported") unsupported++;
          known.add(token.toLowerCase());
        } catch {
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const learned = tokens.size - failed;
    if (learned > 0)
      deps.logger.info(
        { tokens: learned, unsupported, failed, ms: Date.now() - started },
        `learned the balance and allowance slots of ${learned} tokens (${unsupported} without single slots)`,
      );
  };

  const tick = () => {
    if (stopped) return;
    current = round()
      .catch((error) => deps.logger.warn({ err: error }, "learning token layouts failed; retrying"))
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, deps.intervalMs);
          timer.unref();
        }
      });
  };
  tick();
  return {
    done: () => current,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
