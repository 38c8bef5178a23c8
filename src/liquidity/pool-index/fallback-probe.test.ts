import { describe, expect, it } from "vitest";
import { mergeWithinCap } from "./fallback-probe.ts";

describe("mergeWithinCap", () => {
  it("merges probed pools without dropping existing ones or passing the cap", () => {
    const existing = Array.from({ length: 95 }, (_, i) => ({ ref: `e${i}` }));
    const merged = mergeWithinCap(existing, [{ ref: "e1" }, { ref: "p1" }, { ref: "p2" }], 96);
    expect(merged).toHaveLength(96);
    expect(merged.slice(0, 95)).toEqual(existing);
    expect(merged[95]).toEqual({ ref: "p1" });
  });
});
