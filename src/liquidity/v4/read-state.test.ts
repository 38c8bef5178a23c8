import { encodeAbiParameters, keccak256, numberToHex } from "viem";
import { describe, expect, it } from "vitest";
import type { Read } from "../read/read.ts";
import { v4PoolStateSlot } from "./pool-key.ts";
import { v4Reads } from "./read-state.ts";

const poolManager = "0x000000000004444c5dc75cB358380D2e3dE08A90";
const poolId = keccak256("0x01");

function slot(read: Read<unknown>) {
  if (read.kind !== "slot") throw new Error("not a storage slot read");
  return read.slot;
}

/** StateLibrary's slot of `mapping[key]` in the field at `offset` of the pool's state, computed afresh. */
function expected(offset: bigint, key: number) {
  const field = numberToHex(v4PoolStateSlot(poolId) + offset, { size: 32 });
  return keccak256(`${encodeAbiParameters([{ type: "int256" }], [BigInt(key)])}${field.slice(2)}`);
}

describe("v4Reads slots", () => {
  it("address bitmap words and ticks as StateLibrary does, the same on every (remembered) call", () => {
    for (let round = 0; round < 2; round++) {
      for (const key of [-887_272, -1, 0, 1, 346, 887_272]) {
        expect(slot(v4Reads.word(poolManager, poolId, key))).toBe(expected(5n, key));
        expect(slot(v4Reads.liquidityNet(poolManager, poolId, key))).toBe(expected(4n, key));
      }
    }
    expect(slot(v4Reads.slot0(poolManager, poolId))).toBe(numberToHex(v4PoolStateSlot(poolId), { size: 32 }));
  });
});
