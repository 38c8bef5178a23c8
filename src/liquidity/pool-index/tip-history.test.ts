import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { type Tip, TipHistory } from "./tip-history.ts";

const tip = (n: number): Tip => ({ number: BigInt(n), hash: `0x${n.toString(16).padStart(64, "0")}` as Hex });

describe("TipHistory.rewind", () => {
  it("drops the tips the chain no longer holds and keeps through the newest one it does", async () => {
    const tips = new TipHistory(1n);
    for (const n of [10, 20, 30]) tips.record(tip(n), 1n);
    expect(await tips.rewind(async (t) => t.number <= 10n)).toBe(10n);
    expect(tips.last()).toEqual(tip(10));
  });

  it("drops nothing when the node fails part way: the next sync checks every tip again", async () => {
    const tips = new TipHistory(1n);
    for (const n of [10, 20, 30]) tips.record(tip(n), 1n);
    const failing = async (t: Tip) => {
      if (t.number === 20n) throw new Error("node unavailable");
      return false;
    };
    await expect(tips.rewind(failing)).rejects.toThrow("node unavailable");
    expect(tips.last()).toEqual(tip(30));
    expect(tips.scannedThrough()).toBe(30n);
  });
});
