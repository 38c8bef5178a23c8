import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.ts";

/**
 * The gates run what they say (README "Tests", docs/development.md): every test file belongs to exactly one
 * vitest project, `npm test` (what CI runs) runs typecheck, lint, every project and the forge suite, and
 * `npm run check` is the fast pre-commit gate.
 */
const ROOT = join(import.meta.dirname, "..");

type Project = { test: { name: string; include: string[]; exclude?: string[] } };
const projects = (config.test?.projects ?? []) as Project[];

/** A vitest glob as a regular expression: `**` spans folders, `*` stays within one, `{a,b}` is either. */
function globToRegExp(glob: string): RegExp {
  const pattern = glob
    .replace(/[.+^$()|[\]\\]/g, "\\$&")
    .replace(/\{([^}]*)\}/g, (_, options: string) => `(?:${options.split(",").join("|")})`)
    .replace(/\*\*\//g, "\u0000")
    .replace(/\*\*/g, ".*")
    .replace(/\*/g, "[^/]*")
    .replaceAll("\u0000", "(?:.*/)?");
  return new RegExp(`^${pattern}$`);
}

const matches = (globs: readonly string[] | undefined, file: string) =>
  (globs ?? []).some((glob) => globToRegExp(glob).test(file));
const projectsOf = (file: string) =>
  projects
    .filter(({ test }) => matches(test.include, file) && !matches(test.exclude, file))
    .map((p) => p.test.name);

const testFiles = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "*.test.ts", "*.test.tsx"],
  { cwd: ROOT, encoding: "utf8" },
)
  .split("\n")
  .filter((file) => file.length > 0);
const scripts = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

describe("test kinds", () => {
  it("has the two projects the docs name", () => {
    expect(projects.map(({ test }) => test.name)).toEqual(["fast", "devnet"]);
  });

  it("puts every test file in exactly one project", () => {
    expect(testFiles.length).toBeGreaterThan(100);
    const misplaced = testFiles
      .map((file) => ({ file, in: projectsOf(file) }))
      .filter((entry) => entry.in.length !== 1)
      .map((entry) => `${entry.file}: ${entry.in.length === 0 ? "in no project" : entry.in.join(" and ")}`);
    expect(misplaced).toEqual([]);
  });

  it("runs the slow kinds outside the fast project: devnet, slow and end-to-end files", () => {
    for (const file of testFiles.filter((f) => /\.(devnet|slow)\.test\.ts$/.test(f) || f.startsWith("test/")))
      expect(projectsOf(file), file).toEqual(["devnet"]);
    expect(projectsOf("src/store/store.slow.test.ts")).toEqual(["devnet"]);
    expect(projectsOf("src/layers.test.ts")).toEqual(["fast"]);
  });

  it("makes `npm test` the whole gate: typecheck, lint, every project, then the contracts", () => {
    expect(scripts.test).toBe("npm run typecheck && npm run lint && vitest run && npm run test:contracts");
    expect(scripts.check).toBe("npm run typecheck && npm run lint && vitest run --project fast");
    expect(scripts.typecheck).toBe("tsc --noEmit && tsc --noEmit -p web");
    expect(scripts.lint).toBe("biome check .");
  });

  it("has CI run `npm test`, the README's test command", () => {
    const commands = readFileSync(join(ROOT, ".ci", "run"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
    expect(commands.at(-1)).toBe("npm install && npm test");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("```sh\nnpm install && npm test\n```");
  });
});
