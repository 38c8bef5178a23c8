import type { PoolEvent } from "../followed-state/pool-event.ts";
import { UnfollowableError } from "../followed-state/unfollowable-error.ts";
import { addDelta } from "../math/liquidity-math.ts";
import { compress, position } from "../math/tick-bitmap.ts";
import type { FollowedConcentrated, TickLiquidity } from "./followed.ts";

/**
 * The pool's state after `events` (in log order), with the pools' own arithmetic: a swap sets price, tick
 * and liquidity as its event says; a mint, burn or liquidity change adds to both ticks' gross and net
 * liquidity (flipping their bitmap bits when gross leaves or reaches zero, clearing a tick it empties) and
 * to the in-range liquidity when `tickLower <= tick < tickUpper`. Ticks outside the held words are not
 * held, so changes there are not tracked. A protocol fee event applies only where the kind prices one on
 * top of the LP fee (`protocolFee`: V4). Never mutates `state`.
 */
export function applyConcentratedEvents<State extends FollowedConcentrated>(
  state: State,
  events: readonly PoolEvent[],
  protocolFee: "on top" | "none",
): State {
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
        if (protocolFee !== "on top") throw new UnfollowableError("a V3 pool has no V4 protocol fee");
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
  return next;
}
