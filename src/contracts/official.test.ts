import { describe, expect, it } from "vitest";
import { matchesOfficialCode, officialBytecode, permit2RuntimeCode } from "./official.ts";

const flip = (code: `0x${string}`, byte: number, value: string): `0x${string}` =>
  `0x${code.slice(2, 2 + byte * 2)}${value}${code.slice(4 + byte * 2)}`;

describe("official bytecode", () => {
  it("loads creation and runtime code from every artifact format", () => {
    for (const name of ["WETH9", "UniswapV3Factory", "PoolManager"] as const) {
      const { bytecode, deployedBytecode } = officialBytecode(name);
      expect(bytecode.length).toBeGreaterThan(deployedBytecode.length);
      expect(deployedBytecode).toMatch(/^0x[0-9a-f]+$/);
    }
    expect(officialBytecode("PoolManager").immutableRanges?.length).toBeGreaterThan(0);
    expect(permit2RuntimeCode().length).toBeGreaterThan(10_000);
  });

  it("tolerates immutables but not changed instructions (forge artifact with recorded ranges)", () => {
    const official = officialBytecode("PoolManager");
    const [range] = official.immutableRanges!;
    const withImmutable = flip(official.deployedBytecode, range!.start + range!.length - 1, "ab");
    expect(matchesOfficialCode(withImmutable, official)).toBe(true);
    expect(matchesOfficialCode(flip(official.deployedBytecode, 10, "fe"), official)).toBe(false);
  });

  it("tolerates only zero words where no ranges are recorded (hardhat artifact)", () => {
    const official = officialBytecode("NonfungiblePositionManager");
    const code = official.deployedBytecode;
    const zeroWord = code.slice(2).match(/(00){32}/)!.index! / 2;
    expect(matchesOfficialCode(flip(code, zeroWord + 31, "11"), official)).toBe(true);
    expect(matchesOfficialCode(flip(code, 0, "61"), official)).toBe(false);
    expect(matchesOfficialCode(`${code}00`, official)).toBe(false);
  });
});
