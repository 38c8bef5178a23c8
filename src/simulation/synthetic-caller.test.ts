import { keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { SYNTHETIC_CALLER } from "./synthetic-caller.ts";

describe("synthetic caller", () => {
  it("is the documented hash-derived address (nobody holds its key)", () => {
    expect(SYNTHETIC_CALLER).toBe(`0x${keccak256(toHex("junction.simulation.caller")).slice(26)}`);
  });
});
