#!/usr/bin/env node
// Stand-in for a native `solc` binary, backed by the pinned solc-js (wasm) package.
// Lets forge compile fully offline via `forge ... --use scripts/solc-wrapper.mjs`:
// forge only needs `--version` and `--standard-json` (stdin → stdout).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { compileInBatches } from "./solc-batches.mjs";

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

main();
