import { describe, expect, it } from "vitest";
import {
  compileInBatches,
  importClosure,
  importedUnit,
  OUTPUT_BATCH,
  renumberSourceMap,
  resolveImports,
  type Solc,
} from "./solc-batches.mjs";

const remappings = [
  { prefix: "solady/", target: "../node_modules/solady/src/" },
  { prefix: "solady/utils/", target: "../vendor/solady-utils/" },
];

describe("import names", () => {
  it("resolves relative imports against the importing unit, others through the longest remapping", () => {
    expect(importedUnit("test/utils/Fixture.sol", "../../src/Executor.sol", remappings)).toBe(
      "src/Executor.sol",
    );
    expect(importedUnit("src/Executor.sol", "./libraries/FeeMath.sol", remappings)).toBe(
      "src/libraries/FeeMath.sol",
    );
    expect(importedUnit("src/A.sol", "solady/utils/SafeTransferLib.sol", remappings)).toBe(
      "../vendor/solady-utils/SafeTransferLib.sol",
    );
    expect(importedUnit("src/A.sol", "solady/tokens/ERC20.sol", remappings)).toBe(
      "../node_modules/solady/src/tokens/ERC20.sol",
    );
    expect(importedUnit("src/A.sol", "other/B.sol", remappings)).toBe("other/B.sol");
  });

  it("reads the sources forge did not send, and finds each batch's closure", () => {
    const parsed = {
      sources: {
        "test/A.t.sol": { content: 'import {B} from "../src/B.sol";\nimport "forge-std/Test.sol";' },
        "src/B.sol": { content: 'import {\n  C\n} from "solady/C.sol";\n// import "src/Nope.sol";' },
      } as Record<string, { content?: string }>,
      settings: { remappings: ["solady/=lib/solady/", "forge-std/=lib/forge-std/"] },
    };
    const read: string[] = [];
    const imports = resolveImports(parsed, (name) => {
      read.push(name);
      return name === "lib/solady/C.sol" ? { contents: "contract C {}" } : { error: "not found" };
    });
    expect(read.sort()).toEqual(["lib/forge-std/Test.sol", "lib/solady/C.sol"]);
    expect(parsed.sources["lib/solady/C.sol"]).toEqual({ content: "contract C {}" });
    expect([...importClosure(["test/A.t.sol"], imports)].sort()).toEqual([
      "lib/forge-std/Test.sol",
      "lib/solady/C.sol",
      "src/B.sol",
      "test/A.t.sol",
    ]);
    expect([...importClosure(["src/B.sol"], imports)].sort()).toEqual(["lib/solady/C.sol", "src/B.sol"]);
  });
});

describe("source maps", () => {
  it("renumbers file indexes, keeps omitted and -1 ones, moves generated sources after the build's", () => {
    const renumber = new Map([
      [0, 4],
      [1, 9],
    ]);
    expect(renumberSourceMap("0:10:1:-;5:3:0;:4;7:1:-1;2:2:2:i", renumber, 2, 10)).toBe(
      "0:10:9:-;5:3:4;:4;7:1:-1;2:2:10:i",
    );
  });
});

describe("compileInBatches", () => {
  it("gives each call only its files' imports and merges one numbering of source ids", () => {
    // 13 independent files, the last importing a shared library: two batches.
    const files = Array.from(
      { length: OUTPUT_BATCH + 1 },
      (_, i) => `src/F${String(i).padStart(2, "0")}.sol`,
    );
    const sources: Record<string, { content: string }> = { "src/Lib.sol": { content: "library Lib {}" } };
    for (const file of files) sources[file] = { content: `contract X {}` };
    sources[files.at(-1)!] = { content: 'import "./Lib.sol";\ncontract Y {}' };
    const selection = Object.fromEntries(files.map((file) => [file, { "*": ["evm.bytecode.sourceMap"] }]));
    const calls: string[][] = [];
    // Like solc: ids in the sorted order of the units it was given; a source map naming the unit itself.
    const solc: Solc = {
      compile(input) {
        const request = JSON.parse(input);
        const units = Object.keys(request.sources).sort();
        calls.push(units);
        const id = (unit: string) => units.indexOf(unit);
        return JSON.stringify({
          sources: Object.fromEntries(units.map((unit) => [unit, { id: id(unit) }])),
          contracts: Object.fromEntries(
            Object.keys(request.settings.outputSelection).map((unit) => [
              unit,
              { X: { evm: { bytecode: { sourceMap: `0:1:${id(unit)}` }, deployedBytecode: {} } } },
            ]),
          ),
        });
      },
    };
    const output = JSON.parse(
      compileInBatches(solc, JSON.stringify({ sources, settings: { outputSelection: selection } }), () => ({
        error: "not found",
      })),
    );
    expect(calls.map((units) => units.length)).toEqual([OUTPUT_BATCH, 2]);
    expect(calls[1]).toEqual(["src/F12.sol", "src/Lib.sol"]);
    const all = Object.keys(sources).sort();
    for (const unit of all) expect(output.sources[unit].id, unit).toBe(all.indexOf(unit));
    for (const file of files)
      expect(output.contracts[file].X.evm.bytecode.sourceMap).toBe(`0:1:${all.indexOf(file)}`);
  });
});
