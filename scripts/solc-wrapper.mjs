#!/usr/bin/env node
// Stand-in for a native `solc` binary, backed by the pinned solc-js (wasm) package.
// Lets forge compile fully offline via `forge ... --use scripts/solc-wrapper.mjs`:
// forge only needs `--version` and `--standard-json` (stdin → stdout).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

// Native builds report a platform suffix; forge parses the semver out of this line,
// so keep the format identical to `solc --version`.
const SOLC_VERSION_STRING = "0.8.26+commit.8a97fa7a.Linux.g++";

// Flags forge passes that take a value; collected for import resolution, otherwise ignored.
const PATH_FLAGS = new Set(["--allow-paths", "--base-path", "--include-path"]);

function parseArgs(argv) {
  const opts = { version: false, standardJson: false, searchPaths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inlineValue] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg];
    if (flag === "--version") {
      opts.version = true;
    } else if (flag === "--standard-json") {
      opts.standardJson = true;
    } else if (PATH_FLAGS.has(flag)) {
      const value = inlineValue ?? argv[++i] ?? "";
      // --allow-paths takes a comma-separated list.
      for (const p of value.split(",")) if (p) opts.searchPaths.push(p);
    }
    // Everything else (e.g. `-`, `--no-import-callback`) is irrelevant to solc-js.
  }
  return opts;
}

function readStdin() {
  return readFileSync(0, "utf8");
}

function makeImportCallback(searchPaths) {
  const roots = [process.cwd(), ...searchPaths.map((p) => path.resolve(p))];
  return (importPath) => {
    const candidates = path.isAbsolute(importPath)
      ? [importPath]
      : roots.map((r) => path.resolve(r, importPath));
    for (const file of candidates) {
      try {
        return { contents: readFileSync(file, "utf8") };
      } catch {
        // try the next root
      }
    }
    return { error: `File not found: ${importPath} (searched ${roots.join(", ")})` };
  };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.version) {
    process.stdout.write(
      `solc, the solidity compiler commandline interface\nVersion: ${SOLC_VERSION_STRING}\n`,
    );
    return;
  }
  if (!opts.standardJson) {
    process.stderr.write("solc-wrapper: only --version and --standard-json are supported\n");
    process.exitCode = 1;
    return;
  }
  const input = readStdin();
  const solc = require("solc");
  // We advertise a fixed version to forge; refuse to run if the installed solc-js differs from it.
  const [expected] = SOLC_VERSION_STRING.split(".Linux");
  if (!solc.version().startsWith(expected)) {
    process.stderr.write(
      `solc-wrapper: solc-js is ${solc.version()}, but this wrapper reports ${expected}\n`,
    );
    process.exitCode = 1;
    return;
  }
  // solc-js returns the standard JSON output as a string; errors are reported inside it,
  // and like native solc the process still exits 0.
  const output = compileInBatches(solc, input, makeImportCallback(opts.searchPaths));
  // No process.exit(): let Node flush a large stdout pipe before exiting.
  process.stdout.write(output);
}

// Files whose output one solc-js call generates, and the sources that call parses: only what those files
// import, directly or not. One solc-js call that parses the whole suite crashes the wasm compiler ("memory
// access out of bounds", "table index is out of bounds") once the sources pass a size (about 1.3 MB,
// 99 files, at 2026-11-26); a call parsing a batch's imports stays far below it. Source ids are then
// renumbered to one numbering for the whole build (the units' sorted order), source maps included, so the
// merged output reads as one compilation's.
const OUTPUT_BATCH = 12;

function compileInBatches(solc, input, importCallback) {
  const parsed = JSON.parse(input);
  const selection = parsed.settings?.outputSelection ?? {};
  const files = Object.keys(selection);
  if (files.length <= OUTPUT_BATCH || "*" in selection)
    return solc.compile(input, { import: importCallback });
  const imports = resolveImports(parsed, importCallback);
  const units = Object.keys(parsed.sources).sort();
  const globalId = new Map(units.map((unit, id) => [unit, id]));
  const merged = { contracts: {}, sources: {}, errors: [] };
  const seen = new Set();
  for (let start = 0; start < files.length; start += OUTPUT_BATCH) {
    const outputs = files.slice(start, start + OUTPUT_BATCH);
    const closure = importClosure(outputs, imports);
    const request = {
      ...parsed,
      sources: Object.fromEntries([...closure].map((unit) => [unit, parsed.sources[unit]])),
      settings: {
        ...parsed.settings,
        outputSelection: Object.fromEntries(outputs.map((file) => [file, selection[file]])),
      },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(request), { import: importCallback }));
    const renumber = new Map(
      Object.entries(output.sources ?? {}).map(([unit, source]) => [source.id, globalId.get(unit)]),
    );
    const parsedCount = closure.size;
    for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
      for (const contract of Object.values(contracts)) {
        for (const code of [contract.evm?.bytecode, contract.evm?.deployedBytecode]) {
          if (code?.sourceMap)
            code.sourceMap = renumberSourceMap(code.sourceMap, renumber, parsedCount, units.length);
        }
      }
      merged.contracts[unit] = contracts;
    }
    for (const [unit, source] of Object.entries(output.sources ?? {}))
      merged.sources[unit] = { ...source, id: globalId.get(unit) };
    for (const error of output.errors ?? []) {
      const key = error.formattedMessage ?? error.message;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.errors.push(error);
    }
  }
  if (merged.errors.length === 0) delete merged.errors;
  return JSON.stringify(merged);
}

/** A source map with its file indexes in the whole build's numbering (compiler-generated ones after it). */
function renumberSourceMap(sourceMap, renumber, parsedCount, unitCount) {
  return sourceMap
    .split(";")
    .map((entry) => {
      const fields = entry.split(":");
      if (fields.length < 3 || fields[2] === "" || fields[2] === "-1") return entry;
      const id = Number(fields[2]);
      fields[2] = String(renumber.get(id) ?? id - parsedCount + unitCount);
      return fields.join(":");
    })
    .join(";");
}

function importClosure(outputs, imports) {
  const closure = new Set();
  const pending = [...outputs];
  while (pending.length > 0) {
    const unit = pending.pop();
    if (closure.has(unit)) continue;
    closure.add(unit);
    pending.push(...(imports.get(unit) ?? []));
  }
  return closure;
}

/**
 * Every import of every source, resolved the way solc names it (relative to the importing unit, else
 * through the remappings); sources forge did not send are read like the import callback reads them.
 */
function resolveImports(parsed, importCallback) {
  const sources = parsed.sources;
  const remappings = (parsed.settings?.remappings ?? []).map((entry) => {
    const [prefix, target] = entry.replace(/^[^:=]*:/, "").split("=");
    return { prefix, target };
  });
  const imports = new Map();
  const pending = Object.keys(sources);
  while (pending.length > 0) {
    const unit = pending.pop();
    if (imports.has(unit)) continue;
    const content = sources[unit]?.content;
    const names = [];
    imports.set(unit, names);
    if (typeof content !== "string") continue;
    for (const match of content.matchAll(/^\s*import\s+(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
      const name = importedUnit(unit, match[1], remappings);
      names.push(name);
      if (!sources[name]) {
        const found = importCallback(name);
        if (found.contents === undefined) continue; // solc reports the missing file itself
        sources[name] = { content: found.contents };
      }
      pending.push(name);
    }
  }
  return imports;
}

function importedUnit(unit, target, remappings) {
  if (target.startsWith("./") || target.startsWith("../"))
    return path.posix.normalize(path.posix.join(path.posix.dirname(unit), target));
  let best;
  for (const remapping of remappings)
    if (target.startsWith(remapping.prefix) && (!best || remapping.prefix.length > best.prefix.length))
      best = remapping;
  return best ? best.target + target.slice(best.prefix.length) : target;
}

main();
