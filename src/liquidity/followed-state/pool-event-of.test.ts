import { type AbiEvent, type Address, toEventSelector } from "viem";
import { describe, expect, it } from "vitest";
import { INITIALIZE, V4_SWAP } from "../pool-index/events.ts";
import { V2_SYNC } from "../v2/events.ts";
import { V3_INITIALIZE, V3_SET_FEE_PROTOCOL, V3_SWAP } from "../v3/events.ts";
import { poolEventOf } from "./apply-events.ts";
import type { FollowedLog } from "./pool-event.ts";

const POOL_MANAGER = "0x000000000004444c5dc75cb358380d2e3de08a90" as Address;
const PAIR = "0xAbCdEf0000000000000000000000000000000001" as Address;
const ID = "0xAB00000000000000000000000000000000000000000000000000000000000001";

const logOf = (event: AbiEvent, address: Address, args: Record<string, unknown>) =>
  ({
    address,
    topics: [toEventSelector(event)],
    eventName: event.name,
    args,
    logIndex: 0,
  }) as unknown as FollowedLog;

describe("poolEventOf", () => {
  it("tells the kind by the event's signature, not its name (V3's and V4's Swap and Initialize)", () => {
    const price = { sqrtPriceX96: 2n ** 96n, tick: 0, liquidity: 5n };
    expect(poolEventOf(logOf(V3_SWAP, PAIR, price), POOL_MANAGER)).toEqual({
      key: PAIR.toLowerCase(),
      kind: "v3",
      event: { name: "price", ...price },
    });
    expect(poolEventOf(logOf(V4_SWAP, POOL_MANAGER, { id: ID, ...price }), POOL_MANAGER)).toEqual({
      key: ID.toLowerCase(),
      kind: "v4",
      event: { name: "price", ...price },
    });
    expect(poolEventOf(logOf(V3_INITIALIZE, PAIR, { sqrtPriceX96: 1n, tick: 3 }), undefined)?.event).toEqual({
      name: "price",
      sqrtPriceX96: 1n,
      tick: 3,
    });
    expect(
      poolEventOf(logOf(INITIALIZE, POOL_MANAGER, { id: ID, sqrtPriceX96: 1n, tick: 3 }), POOL_MANAGER)
        ?.event,
    ).toEqual({ name: "price", sqrtPriceX96: 1n, tick: 3, liquidity: 0n });
  });

  it("keys V2 and V3 logs by address, drops a V4 event from another contract", () => {
    expect(poolEventOf(logOf(V2_SYNC, PAIR, { reserve0: 1n, reserve1: 2n }), undefined)).toEqual({
      key: PAIR.toLowerCase(),
      kind: "v2",
      event: { name: "sync", reserve0: 1n, reserve1: 2n },
    });
    expect(poolEventOf(logOf(V3_SET_FEE_PROTOCOL, PAIR, {}), undefined)?.event).toEqual({ name: "none" });
    expect(poolEventOf(logOf(V4_SWAP, PAIR, { id: ID }), POOL_MANAGER)).toBeUndefined();
    expect(poolEventOf(logOf(V4_SWAP, POOL_MANAGER, { id: ID }), undefined)).toBeUndefined();
  });
});
