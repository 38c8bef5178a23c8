import { describe, expect, it } from "vitest";
import { poolLensArtifact } from "../../contracts/artifacts/PoolLens.ts";
import { lensCall, parseLensAnswer } from "./run-reads.ts";

const word = (n: bigint) => n.toString(16).padStart(64, "0");

describe("the PoolLens request and answer", () => {
  it("packs each view as target, calldata length, calldata, word count and indexes after the creation code", () => {
    const data = lensCall([
      {
        kind: "view",
        target: "0x00000000000000000000000000000000000000aa",
        data: "0x1234",
        words: [0, 1],
        decode: () => 0,
      },
      {
        kind: "view",
        target: "0x00000000000000000000000000000000000000bb",
        data: "0xabcdef01",
        words: [7],
        decode: () => 0,
      },
    ]);
    expect(data.startsWith(poolLensArtifact.bytecode)).toBe(true);
    const packed = `${"00".repeat(19)}aa00021234020001${"00".repeat(19)}bb0004abcdef010107`;
    // ABI `bytes`: offset 0x20, length, then the packed request padded to a word.
    expect(data.slice(poolLensArtifact.bytecode.length)).toBe(
      `${word(32n)}${word(BigInt(packed.length / 2))}${packed.padEnd(128, "0")}`,
    );
  });

  it("reads each entry's status and words, and refuses an answer of another shape", () => {
    const answer = `0x01${word(5n)}${word(2n ** 255n)}0001${word(9n)}` as const;
    expect(parseLensAnswer(answer, [2, 1, 1])).toEqual([[5n, 2n ** 255n], undefined, [9n]]);
    expect(() => parseLensAnswer(answer, [2, 1])).toThrow(/unexpected form/);
    expect(() => parseLensAnswer(answer, [2, 1, 1, 1])).toThrow(/unexpected form/);
    expect(() => parseLensAnswer("0x02", [0])).toThrow(/unexpected form/);
    expect(parseLensAnswer("0x", [])).toEqual([]);
  });
});
