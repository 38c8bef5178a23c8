import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { PoolSnapshot } from "../read/load-pool-states.ts";
import { BlockJournal } from "./block-journal.ts";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const block = (n: number, parent = n - 1) => ({
  number: BigInt(n),
  hash: hash(n),
  parentHash: hash(parent),
  timestamp: BigInt(n),
  baseFeePerGas: 1n,
  gasSuggestion: 1n,
  epoch: hash(1),
});
const v2 = (reserve0: bigint): PoolSnapshot => ({
  kind: "v2",
  address: "0x00000000000000000000000000000000000000a2",
  blockNumber: 1n,
  reserve0,
  reserve1: 1n,
});

describe("BlockJournal", () => {
  it("tells each pool's state at every retained block and rewinds a reorg to the common ancestor", () => {
    const journal = new BlockJournal(3);
    journal.begin(block(1));
    journal.set("a", v2(10n));
    journal.begin(block(2));
    journal.set("a", v2(20n));
    journal.set("b", v2(5n));
    journal.begin(block(3));
    journal.set("a", v2(30n));
    expect(journal.stateAt("a", hash(1))).toEqual(v2(10n));
    expect(journal.stateAt("b", hash(1))).toBeUndefined();
    expect(journal.stateAt("a", hash(2))).toEqual(v2(20n));
    expect(journal.stateAt("a", hash(3))).toEqual(v2(30n));
    expect(journal.stateAt("a", hash(99))).toBeUndefined();
    expect(() => journal.begin(block(5, 4))).toThrow(RangeError);

    expect(journal.rewindTo(hash(1))).toBe(true);
    expect(journal.head()?.number).toBe(1n);
    expect(journal.latest("a")).toEqual(v2(10n));
    expect(journal.latest("b")).toBeUndefined();
    expect(journal.rewindTo(hash(99))).toBe(false);
  });

  it("forgets blocks past its depth: they can no longer be told or rewound to", () => {
    const journal = new BlockJournal(2);
    for (let n = 1; n <= 4; n++) {
      journal.begin(block(n));
      journal.set("a", v2(BigInt(n)));
    }
    expect(journal.stateAt("a", hash(2))).toBeUndefined();
    expect(journal.rewindTo(hash(2))).toBe(false);
    expect(journal.stateAt("a", hash(3))).toEqual(v2(3n));
  });
});
