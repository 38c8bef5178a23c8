import type { PoolEvent } from "../followed-state/pool-event.ts";
import { UnfollowableError } from "../followed-state/unfollowable-error.ts";
import { addDelta } from "../math/liquidity-math.ts";
import { compress, position } from "../math/tick-bitmap.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * The pool's state after `events` (in log order), with the pools' own arithmetic: a swap sets price, tick
 * and liquidity as its event says; a mint, burn or liquidity change adds to both ticks' gross and net
 * liquidity (flipping their bitmap bits when gross leaves or reaches zero, clearing a tick it empties) and
 * to the in-range liquidity when `tickLower <= tick < tickUpper`. Ticks outside the held words are not
 * held, so changes there are not tracked. A protocol fee event applies only where the kind prices one on
 * top of the LP fee (`protocolFee`: V4). Throws `UnfollowableError` for a state read without its gross
 * liquidity (a quote's read, not a followed pool's). Never mutates `state`.
 */
export function applyConcentratedEvents<State extends ConcentratedPoolState & { protocolFee?: number }>(
  state: State,
  events: readonly PoolEvent[],
  protocolFee: "on top" | "none",
): State {
  const next = { ...state };
  const held = state.bitmap;
  let words: Map<number, bigint> | undefined;
  let net: Map<number, bigint> | undefined;
  let gross: Map<number, bigint> | undefined;
  const updateTick = (tick: number, delta: bigint, upper: boolean) => {
    const { wordPos, bitPos } = position(compress(tick, next.tickSpacing));
    if (wordPos < held.from || wordPos > held.to) return;
    if (!state.liquidityGross) throw new UnfollowableError("a pool read without its ticks' gross liquidity");
    words ??= new Map(held.words);
    net ??= new Map(state.liquidityNet);
    gross ??= new Map(state.liquidityGross);
    const grossBefore = gross.get(tick) ?? 0n;
    const grossAfter = addDelta(grossBefore, delta);
    const netBefore = net.get(tick) ?? 0n;
    if ((grossAfter === 0n) !== (grossBefore === 0n)) {
      const word = (words.get(wordPos) ?? 0n) ^ (1n << BigInt(bitPos));
      if (word === 0n) words.delete(wordPos);
      else words.set(wordPos, word);
    }
    if (grossAfter === 0n) {
      gross.delete(tick);
      net.delete(tick);
    } else {
      gross.set(tick, grossAfter);
      net.set(tick, upper ? netBefore - delta : netBefore + delta);
    }
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
        if (protocolFee !== "on top") throw new UnfollowableError("a V3 pool has no V4 protocol fee");
        next.protocolFee = event.protocolFee;
        break;
      case "none":
        break;
      default:
        throw new UnfollowableError(`a concentrated pool cannot apply ${event.name}`);
    }
  }
  if (words) next.bitmap = { from: held.from, to: held.to, words };
  if (net) next.liquidityNet = net;
  if (gross) next.liquidityGross = gross;
  return next;
}
