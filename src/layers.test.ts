import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Layers point down (docs/architecture.md, "Layers"): a module under src/ imports from its own folder and
 * from folders ranked below it (later in this list), never from a folder ranked above it, and never from a
 * sibling (another folder of its own rank, see SIBLINGS). Top first:
 */
const LAYERS: readonly (readonly string[])[] = [
  // The `junction` command.
  ["cli"],
  // Composition root: builds the store, chain client, index, quoter and apps, and starts the devnet.
  ["runtime"],
  // The HTTP edge, and the embedded devnet with its demo workspace.
  ["api", "devnet"],
  // The developer portal's sessions and wallet-bound workspace operations, over the builder domain; settlement
  // events (outbox, webhooks, stream), which turn the builder domain's settlements into pushed facts.
  ["portal", "events"],
  // Surfaces built on the quote pipeline: a builder quote is the comparison plus attribution.
  ["builders", "partners"],
  // The comparison pipeline; transfer estimates.
  ["quote", "transfers"],
  // What the pipeline composes, and API keys and quotas.
  ["routing", "simulation", "providers", "auth"],
  // Pools and their exact math; SQL.
  ["liquidity", "store"],
  // Settings, the deployment file and the capability flags (the deployment file names the chain id).
  ["config"],
  // The chain (its id, clients, transports) and the contracts' ABIs and artifacts.
  ["chain", "contracts"],
  // The one error model every layer throws (a code, a safe message, the cause).
  ["errors"],
];

/**
 * Folders of one rank are siblings: neither imports the other, and what both need lives in a folder ranked
 * below them. Every pair is named here with why it stays apart; a test checks the list covers every pair
 * LAYERS makes, so a new folder or rank cannot slip in unchecked. When one sibling truly needs the other,
 * rank it below in LAYERS instead (and say why there).
 */
const SIBLINGS: readonly { pair: readonly [string, string]; why: string }[] = [
  {
    pair: ["portal", "events"],
    why: "the portal manages a workspace's webhook endpoints through the HTTP edge, which calls both",
  },
  {
    pair: ["api", "devnet"],
    why: "the HTTP edge serves any chain; the devnet is one chain, which the composition root starts and hands over",
  },
  {
    pair: ["builders", "partners"],
    why: "two surfaces over one pipeline: what both need (the executable quote, fee terms) lives in quote/",
  },
  { pair: ["quote", "transfers"], why: "transfer estimates ask bridge providers, never the swap pipeline" },
  {
    pair: ["routing", "simulation"],
    why: "the search scores routes off-chain; the quote pipeline hands the chosen ones to simulation",
  },
  { pair: ["routing", "providers"], why: "third-party candidates are compared in quote/, not searched" },
  { pair: ["routing", "auth"], why: "routing knows pools and amounts, never who asked" },
  {
    pair: ["simulation", "providers"],
    why: "simulation runs calldata from any source; quote/ joins a provider's transaction to it",
  },
  { pair: ["simulation", "auth"], why: "simulation knows calldata and state overrides, never who asked" },
  { pair: ["providers", "auth"], why: "a provider's credential is a setting, not a customer key" },
  {
    pair: ["liquidity", "store"],
    why: "pool math and state reads know no database: the index gets a persistence interface that runtime/ fills from store/",
  },
  {
    pair: ["chain", "contracts"],
    why: "the JSON-RPC layer knows no ABI; callers bring the contracts they read",
  },
];

const SRC = dirname(fileURLToPath(import.meta.url));
const rank = new Map(LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, i] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The top-level folder under src/ of a path, or undefined outside src/ (or for a file directly in it). */
function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
}

/** Every import, re-export and dynamic import of the non-test modules (test files import anything). */
const allImports = sourceFiles(SRC).flatMap((file) =>
  ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((ref) => ({
    file: relative(SRC, file),
    specifier: ref.fileName,
    from: folderOf(file),
  })),
);
/** The imports of modules under src/, with the folder each one reaches. */
const imports = allImports
  .filter(({ specifier }) => specifier.startsWith("."))
  .map((entry) => ({ ...entry, to: folderOf(resolve(SRC, dirname(entry.file), entry.specifier)) }));

/** The HTTP framework stays at the edge: only these folders may import it (docs/architecture.md, "Layers"). */
const HTTP_FOLDERS = new Set(["api", "runtime"]);
const isHttpFramework = (specifier: string) => /^(hono($|\/)|@hono\/)/.test(specifier);

describe("layers", () => {
  it("ranks every folder under src/ exactly once", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect([...LAYERS.flat()].sort()).toEqual(folders);
    expect(rank.size).toBe(LAYERS.flat().length);
    expect(sourceFiles(SRC).filter((file) => folderOf(file) === undefined)).toEqual([]);
  });

  it("reads the imports it checks", () => {
    expect(imports.length).toBeGreaterThan(200);
    expect(imports.some((i) => i.from === "api" && i.to === "quote")).toBe(true);
  });

  it("has no import from a folder ranked above the importer's", () => {
    const upward = imports
      .filter(({ from, to }) => from !== undefined && to !== undefined && from !== to)
      .filter(({ from, to }) => rank.get(to!)! < rank.get(from!)!)
      .map(({ file, specifier, from, to }) => `${file} imports ${specifier} (${from} may not import ${to})`);
    expect(upward).toEqual([]);
  });

  it("names every pair of folders sharing a rank as siblings, each with a reason", () => {
    const named = SIBLINGS.map(({ pair, why }) => {
      expect(why.length, pair.join(" / ")).toBeGreaterThan(0);
      expect(rank.get(pair[0]), pair.join(" / ")).toBe(rank.get(pair[1]));
      return [...pair].sort().join(" / ");
    });
    const sharingARank = LAYERS.flatMap((folders) =>
      folders.flatMap((a, i) => folders.slice(i + 1).map((b) => [a, b].sort().join(" / "))),
    );
    expect(named.length).toBeGreaterThan(0);
    expect([...named].sort()).toEqual([...sharingARank].sort());
  });

  it("keeps siblings apart: neither folder of a pair imports the other", () => {
    const sideways = SIBLINGS.flatMap(({ pair: [a, b], why }) =>
      imports
        .filter(({ from, to }) => (from === a && to === b) || (from === b && to === a))
        .map(({ file, specifier, from, to }) => `${file} imports ${specifier} (${from} and ${to}: ${why})`),
    );
    expect(sideways).toEqual([]);
  });

  it("keeps the HTTP framework out of the domain: only api/ and runtime/ import it", () => {
    const outside = allImports
      .filter(({ from, specifier }) => isHttpFramework(specifier) && !HTTP_FOLDERS.has(from ?? ""))
      .map(({ file, specifier }) => `${file} imports ${specifier}`);
    expect(outside).toEqual([]);
    expect(allImports.some(({ specifier }) => isHttpFramework(specifier))).toBe(true);
  });
});
