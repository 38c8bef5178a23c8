import type { Address, Log } from "viem";
import { addDelta } from "../math/liquidity-math.ts";
import { compress, position } from "../math/tick-bitmap.ts";
import type { FOLLOWED_EVENTS } from "./events.ts";
import type { FollowedConcentrated, FollowedPool, TickLiquidity } from "./followed-pool.ts";

/** What one log does to a followed pool, decoded; `key` is the pool's `poolRef`. */
export type PoolEvent =
  | { name: "sync"; reserve0: bigint; reserve1: bigint }
  | { name: "price"; sqrtPriceX96: bigint; tick: number; liquidity?: bigint }
  | { name: "liquidity"; tickLower: number; tickUpper: number; delta: bigint }
  | { name: "protocolFee"; protocolFee: number }
  | { name: "none" };

export type FollowedLog = Log<bigint, number, false, undefined, true, typeof FOLLOWED_EVENTS>;

/**
 * The pool a log is about and what it does, or undefined for a log of no pool we could follow (a V4 event
 * from another contract than `poolManager`). V2 and V3 logs are keyed by the emitting address; whether that
 * address is a followed pool of the right kind is the caller's check.
 */
export function poolEventOf(
  log: FollowedLog,
  poolManager: Address | undefined,
): { key: string; kind: "v2" | "v3" | "v4"; event: PoolEvent } | undefined {
  const args = log.args as Record<string, unknown>;
  if ("id" in args) {
    if (!poolManager || log.address.toLowerCase() !== poolManager.toLowerCase()) return undefined;
    const key = (args.id as string).toLowerCase();
    return { key, kind: "v4", event: v4Event(log.eventName, args) };
  }
  const key = log.address.toLowerCase();
  switch (log.eventName) {
    case "Sync":
      return {
        key,
        kind: "v2",
        event: { name: "sync", reserve0: args.reserve0 as bigint, reserve1: args.reserve1 as bigint },
      };
    case "Initialize":
      return {
        key,
        kind: "v3",
        event: { name: "price", sqrtPriceX96: args.sqrtPriceX96 as bigint, tick: args.tick as number },
      };
    case "Swap":
      return { key, kind: "v3", event: priceOf(args) };
    case "Mint":
    case "Burn": {
      const amount = args.amount as bigint;
      const delta = log.eventName === "Mint" ? amount : -amount;
      return {
        key,
        kind: "v3",
        event: {
          name: "liquidity",
          tickLower: args.tickLower as number,
          tickUpper: args.tickUpper as number,
          delta,
        },
      };
    }
    default:
      // SetFeeProtocol: V3's protocol fee is taken out of the pool fee, not priced on top.
      return { key, kind: "v3", event: { name: "none" } };
  }
}

function v4Event(name: string, args: Record<string, unknown>): PoolEvent {
  switch (name) {
    case "Initialize":
      return {
        name: "price",
        sqrtPriceX96: args.sqrtPriceX96 as bigint,
        tick: args.tick as number,
        liquidity: 0n,
      };
    case "Swap":
      return priceOf(args);
    case "ModifyLiquidity":
      return {
        name: "liquidity",
        tickLower: args.tickLower as number,
        tickUpper: args.tickUpper as number,
        delta: args.liquidityDelta as bigint,
      };
    default:
      return { name: "protocolFee", protocolFee: args.protocolFee as number };
  }
}

/** A Swap event carries the pool's price, tick and in-range liquidity after it, exactly as stored. */
const priceOf = (args: Record<string, unknown>): PoolEvent => ({
  name: "price",
  sqrtPriceX96: args.sqrtPriceX96 as bigint,
  tick: args.tick as number,
  liquidity: args.liquidity as bigint,
});

/** Why a pool could not be followed through a block: it is read directly until it is read again. */
export class UnfollowableError extends Error {
  override name = "UnfollowableError";
}

/**
 * The pool's state after `events` (in log order), with the pools' own arithmetic: a swap sets price, tick
 * and liquidity as its event says; a mint, burn or liquidity change adds to both ticks' gross and net
 * liquidity (flipping their bitmap bits when gross leaves or reaches zero, clearing a tick it empties) and
 * to the in-range liquidity when `tickLower <= tick < tickUpper`. Ticks outside the held words are not
 * held, so changes there are not tracked. Never mutates `state`.
 */
export function applyEvents(state: FollowedPool, events: readonly PoolEvent[]): FollowedPool {
  if (state.kind === "v2") {
    let next = state;
    for (const event of events) {
      if (event.name !== "sync") throw new UnfollowableError(`a V2 pair cannot apply ${event.name}`);
      next = { kind: "v2", reserve0: event.reserve0, reserve1: event.reserve1 };
    }
    return next;
  }
  const next = { ...state };
  let words: Map<number, bigint> | undefined;
  let ticks: Map<number, TickLiquidity> | undefined;
  const updateTick = (tick: number, delta: bigint, upper: boolean) => {
    const { wordPos, bitPos } = position(compress(tick, next.tickSpacing));
    if (wordPos < next.held.from || wordPos > next.held.to) return;
    words ??= new Map(state.words);
    ticks ??= new Map(state.ticks);
    const before = ticks.get(tick) ?? { gross: 0n, net: 0n };
    const gross = addDelta(before.gross, delta);
    const net = upper ? before.net - delta : before.net + delta;
    if ((gross === 0n) !== (before.gross === 0n)) {
      const word = (words.get(wordPos) ?? 0n) ^ (1n << BigInt(bitPos));
      if (word === 0n) words.delete(wordPos);
      else words.set(wordPos, word);
    }
    if (gross === 0n) ticks.delete(tick);
    else ticks.set(tick, { gross, net });
  };
  for (const event of events) {
    switch (event.name) {
      case "price":
        next.sqrtPriceX96 = event.sqrtPriceX96;
        next.tick = event.tick;
        if (event.liquidity !== undefined) next.liquidity = event.liquidity;
        break;
      case "liquidity":
        if (event.delta === 0n) break;
        updateTick(event.tickLower, event.delta, false);
        updateTick(event.tickUpper, event.delta, true);
        if (next.tick >= event.tickLower && next.tick < event.tickUpper)
          next.liquidity = addDelta(next.liquidity, event.delta);
        break;
      case "protocolFee":
        if (next.kind !== "v4") throw new UnfollowableError("a V3 pool has no V4 protocol fee");
        next.protocolFee = event.protocolFee;
        break;
      case "none":
        break;
      default:
        throw new UnfollowableError(`a concentrated pool cannot apply ${event.name}`);
    }
  }
  if (words) next.words = words;
  if (ticks) next.ticks = ticks;
  return next satisfies FollowedConcentrated;
}
