import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Layers point down (STYLE 2, DESIGN "Layout" and "The shape of the system"): a module under src/ imports
 * from its own folder and from folders ranked below it (later in this list), never from its rank or above.
 * Top first:
 */
const LAYERS: readonly (readonly string[])[] = [
  // The `junction` command.
  ["cli"],
  // Composition root: builds the store, chain client, index, quoter and apps, and starts the devnet.
  ["service"],
  // The HTTP edge, and the embedded devnet with its demo workspace.
  ["api", "devnet"],
  // The developer portal's sessions and wallet-bound workspace operations, over the builder domain.
  ["portal"],
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

/** Imports between folders of the same rank that are allowed, each with its reason. None today. */
const ALLOWED_SIDEWAYS: readonly { from: string; to: string; why: string }[] = [];

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

/** The HTTP framework stays at the edge: only these folders may import it (DESIGN "The shape of the system"). */
const HTTP_FOLDERS = new Set(["api", "service"]);
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

  it("has no import from a folder ranked at or above the importer's, except the listed ones", () => {
    const allowed = new Set(ALLOWED_SIDEWAYS.map(({ from, to }) => `${from} -> ${to}`));
    const upward = imports
      .filter(({ from, to }) => from !== undefined && to !== undefined && from !== to)
      .filter(({ from, to }) => rank.get(to!)! <= rank.get(from!)! && !allowed.has(`${from} -> ${to}`))
      .map(({ file, specifier, from, to }) => `${file} imports ${specifier} (${from} may not import ${to})`);
    expect(upward).toEqual([]);
  });

  it("keeps the HTTP framework out of the domain: only api/ and service/ import it", () => {
    const outside = allImports
      .filter(({ from, specifier }) => isHttpFramework(specifier) && !HTTP_FOLDERS.has(from ?? ""))
      .map(({ file, specifier }) => `${file} imports ${specifier}`);
    expect(outside).toEqual([]);
    expect(allImports.some(({ specifier }) => isHttpFramework(specifier))).toBe(true);
  });

  it("lists only sideways imports between folders of one rank that exist", () => {
    for (const { from, to, why } of ALLOWED_SIDEWAYS) {
      expect(rank.get(from), `${from} -> ${to}`).toBe(rank.get(to));
      expect(why.length).toBeGreaterThan(0);
      expect(
        imports.some((i) => i.from === from && i.to === to),
        `${from} -> ${to} is unused`,
      ).toBe(true);
    }
  });
});
