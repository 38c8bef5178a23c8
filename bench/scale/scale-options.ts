import { resolve } from "node:path";
import { parseArgs } from "node:util";

export type ScaleOptions = {
  pools: number;
  swapsPerBlock: number;
  /** Blocks mined after ready: first the empty ones, then busy ones without, then with, quotes. */
  blocks: number;
  busy: number;
  blockTimeSeconds: number;
  seed: number;
  /** A node's request body cap in bytes (the proxy answers HTTP 413 past it). */
  bodyLimit?: number;
  /** Delay the proxy adds to every request, as a distant node's. */
  rpcDelayMs?: number;
  /** Where the service writes a V8 CPU profile of its whole run (`--cpu-prof`), to see where its time went. */
  cpuProfDir?: string;
  /** Give the service the node's WebSocket endpoint (`JUNCTION_RPC_WS_URL`): heads by subscription, not polls. */
  ws?: boolean;
  /**
   * Serve the chain from an anvil forked from the built one (which then mines nothing): it mines a block in
   * milliseconds, where anvil 1.7.1 rehashes a loaded chain's whole state for every block (600-1,400 ms at
   * 10,000 pools) and answers nothing meanwhile. It stands in for a node that serves reads while it imports
   * a block; what it has not read yet it fetches from the built chain on first use.
   */
  fork?: boolean;
};

export class ScaleUsageError extends Error {
  override name = "ScaleUsageError";
}

export const SCALE_USAGE =
  "npm run bench -- scale [--pools 300] [--swaps-per-block 200] [--blocks 50] [--busy 40] [--block-time 2] [--seed 1] [--body-limit BYTES] [--rpc-delay MS] [--cpu-prof DIR] [--ws] [--fork]";

/** `scale`'s own flags (the words after `scale` on `npm run bench -- scale ...`). */
export function parseScaleOptions(argv: string[]): ScaleOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        pools: { type: "string", default: "300" },
        "swaps-per-block": { type: "string", default: "200" },
        blocks: { type: "string", default: "50" },
        busy: { type: "string", default: "40" },
        "block-time": { type: "string", default: "2" },
        seed: { type: "string", default: "1" },
        "body-limit": { type: "string" },
        "rpc-delay": { type: "string" },
        "cpu-prof": { type: "string" },
        ws: { type: "boolean" },
        fork: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new ScaleUsageError(`${(error as Error).message}\nusage: ${SCALE_USAGE}`);
  }
  const number = (name: string, min: number, max: number): number => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min || value > max)
      throw new ScaleUsageError(`--${name} must be a number from ${min} to ${max}\nusage: ${SCALE_USAGE}`);
    return value;
  };
  const options: ScaleOptions = {
    pools: Math.round(number("pools", 50, 100_000)),
    swapsPerBlock: Math.round(number("swaps-per-block", 0, 5_000)),
    blocks: Math.round(number("blocks", 1, 10_000)),
    busy: Math.round(number("busy", 0, 10_000)),
    blockTimeSeconds: number("block-time", 0.1, 60),
    seed: Math.round(number("seed", 0, 2 ** 32 - 1)),
    ...(values["body-limit"] !== undefined
      ? { bodyLimit: Math.round(number("body-limit", 1_000, 2 ** 31)) }
      : {}),
    ...(values["rpc-delay"] !== undefined ? { rpcDelayMs: number("rpc-delay", 0, 10_000) } : {}),
    ...(typeof values["cpu-prof"] === "string" ? { cpuProfDir: resolve(values["cpu-prof"]) } : {}),
    ...(values.ws ? { ws: true } : {}),
    ...(values.fork ? { fork: true } : {}),
  };
  if (options.busy > options.blocks)
    throw new ScaleUsageError(`--busy (${options.busy}) exceeds --blocks (${options.blocks})`);
  return options;
}
