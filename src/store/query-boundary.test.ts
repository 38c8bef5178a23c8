import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..");

/** Every non-test TypeScript source under `dir`, relative to src/. */
function sources(dir: string): string[] {
  return readdirSync(join(SRC, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => join(dir, file));
}

const KYSELY_IMPORT = /from\s+["']kysely["']/;
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|transaction)\(|\bsql\s*(<[^>]*>)?`/;

const offenders = (files: string[], pattern: RegExp) =>
  files.filter((file) => pattern.test(readFileSync(join(SRC, file), "utf8")));

// STYLE.md item 9: persistence sits behind the repositories in src/store/repositories.
describe("queries live in src/store only", () => {
  it("leaves src/api and src/cli without Kysely: they pass the handle to domain functions", () => {
    const files = [...sources("api"), ...sources("cli")];
    expect(files.length).toBeGreaterThan(20);
    expect(offenders(files, KYSELY_IMPORT)).toEqual([]);
    expect(offenders(files, QUERY)).toEqual([]);
  });

  it("leaves the domain folders calling repositories, not building queries", () => {
    const files = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "store")
      .flatMap((entry) => sources(entry.name));
    expect(files).toContain(join("builders", "swap-preparation.ts"));
    expect(offenders(files, KYSELY_IMPORT)).toEqual([]);
    expect(offenders(files, QUERY)).toEqual([]);
  });
});
