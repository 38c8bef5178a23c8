import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is the front door and docs/ holds the rest (docs/development.md, "House rules"): the README
 * stays short with its two quick-start commands, and every relative link in the README and under docs/
 * reaches a file that exists, at a heading that exists.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const README = path.join(ROOT, "README.md");
const README_MAX_LINES = 250;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join(dir, file));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a markdown file defines: one per heading, outside code blocks. */
function anchors(file: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) found.add(slug(heading[1]!));
  }
  return found;
}

/** Relative link targets of a markdown file, outside code blocks: `[text](target)`. */
function links(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target));
}

const FILES = [README, ...markdownFiles(path.join(ROOT, "docs"))];

describe("the README and docs/", () => {
  it("keep the README a front door: short, with the two quick-start commands", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
    const quickStart = readme.slice(
      readme.indexOf("## Quick start"),
      readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1),
    );
    expect([...quickStart.matchAll(/```sh\n(.*)\n```/g)].map((match) => match[1])).toEqual([
      "npm install && npm start",
      "npm install && npm test",
    ]);
  });

  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of FILES) {
      for (const target of links(file)) {
        checked++;
        const [pathPart, anchor] = target.split("#") as [string, string | undefined];
        const resolved = pathPart === "" ? file : path.resolve(path.dirname(file), pathPart);
        const where = `${path.relative(ROOT, file)} -> ${target}`;
        if (!existsSync(resolved)) broken.push(`${where}: no such file`);
        else if (anchor !== undefined && statSync(resolved).isFile() && !anchors(resolved).has(anchor))
          broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it("reaches every guide under docs/ from the README", () => {
    const readme = readFileSync(README, "utf8");
    const guides = FILES.filter((file) => file !== README).map((file) => path.relative(ROOT, file));
    expect(guides.filter((guide) => !readme.includes(`](${guide}`))).toEqual([]);
  });
});

describe("slug", () => {
  it("makes GitHub's anchors", () => {
    expect(slug("The HTTP edge (every host)")).toBe("the-http-edge-every-host");
    expect(slug("gas: the gas model and the executor")).toBe("gas-the-gas-model-and-the-executor");
    expect(slug("`junction devnet` versus `npm start`")).toBe("junction-devnet-versus-npm-start");
  });
});
