import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CONTRACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "contracts");

/**
 * forge reaches forge-std's files through the `forge-std/` remapping and, from inside Test.sol, through
 * their absolute paths; the same file under two source unit names makes solc-js abort a cold build with
 * "memory access out of bounds" (incremental builds hide it). So forge-std is imported through Test.sol only.
 */
describe("forge-std imports", () => {
  it("go through forge-std/Test.sol only", () => {
    const offenders = readdirSync(CONTRACTS, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".sol"))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter(
        (file) =>
          !file.includes(`${path.sep}out${path.sep}`) && !file.includes(`${path.sep}cache${path.sep}`),
      )
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/from\s+"(forge-std\/[^"]+)"/g)]
          .map((match) => match[1])
          .filter((target) => target !== "forge-std/Test.sol")
          .map((target) => `${path.relative(CONTRACTS, file)} imports ${target}`),
      );
    expect(offenders).toEqual([]);
  });
});
