import { describe, expect, it } from "vitest";
import { stableJson } from "./coalescing-transport.ts";

describe("stableJson", () => {
  it("keys objects independently of property order, and keeps every value", () => {
    expect(stableJson([{ b: 1, a: 2 }, "latest"])).toBe(stableJson([{ a: 2, b: 1 }, "latest"]));
    expect(stableJson([{ a: 1 }, "0x1"])).not.toBe(stableJson([{ a: 1 }, "0x2"]));
    expect(stableJson([{ to: "0x1" }, "latest", { "0x2": { balance: "0x1" } }])).not.toBe(
      stableJson([{ to: "0x1" }, "latest"]),
    );
  });
});
