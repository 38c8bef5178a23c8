import { describe, expect, it } from "vitest";
import { generateAbis } from "../../scripts/gen-abis.ts";

describe("official ABIs", () => {
  it("match the artifacts in the installed npm packages", () => {
    expect(generateAbis({ write: false }).changed).toEqual([]);
  });
});
