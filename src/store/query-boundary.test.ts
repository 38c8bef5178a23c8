import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** Every non-test TypeScript source under `dir` (relative to the repository), relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !/\.test\.ts$/.test(file))
    .filter((file) => !file.split(/[\\/]/).includes("node_modules"))
    .map((file) => join(dir, file));
}

const KYSELY_IMPORT = /from\s+["']kysely["']/;
/** A Kysely query, a `sql` template, or a string literal that starts an SQL statement. */
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|transaction)\(|\bsql\s*(<[^>]*>)?`/;
const RAW_SQL =
  /["'`]\s*(select\s|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s|create\s+(table|database|index|schema)\s|drop\s+(table|database|index|schema)\s|alter\s+table\s|truncate\s)/i;

const offenders = (files: string[], ...patterns: RegExp[]) =>
  files.filter((file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    return patterns.some((pattern) => pattern.test(text));
  });

const REPOSITORIES = join("src", "store", "repositories");

/**
 * Files outside src/store/repositories that may hold SQL, each with why. Everything else reaches the
 * database through a repository (docs/architecture.md, "Errors and persistence": one repository per table family).
 */
const ALLOWED: Record<string, string> = {
  [join("src", "store", "migrations.ts")]: "the schema itself: each migration's DDL",
  [join("src", "store", "throwaway-store.ts")]:
    "creates and drops its own database on the server's admin connection, before any store exists",
  [join("bench", "builder-api.ts")]:
    "arranges a measurement: the workspace's plan, and quota counters reset between series",
  [join("test", "builder-api.ts")]: "arranges a test: a workspace on the plan a test asks for",
};

describe("SQL lives in src/store/repositories only", () => {
  const everywhere = ["src", "bench", "scripts", "test", "packages", "examples", "web"].flatMap(sources);
  const outside = everywhere.filter((file) => !file.startsWith(`${REPOSITORIES}/`) && !(file in ALLOWED));

  it("reads the sources it checks, repositories included", () => {
    expect(outside.length).toBeGreaterThan(300);
    expect(outside).toContain(join("src", "builders", "swap-preparation.ts"));
    expect(outside).toContain(join("src", "store", "create-store.ts"));
    const repositories = everywhere.filter((file) => file.startsWith(`${REPOSITORIES}/`));
    expect(offenders(repositories, QUERY).length).toBeGreaterThan(10);
  });

  it("leaves every other module without a query, an SQL string or Kysely itself", () => {
    expect(offenders(outside, QUERY, RAW_SQL)).toEqual([]);
    // Only src/store may name Kysely (types and the dialects included); api/, cli/ and the domain folders
    // pass the handle on to repositories.
    expect(
      offenders(
        outside.filter((file) => !file.startsWith(join("src", "store"))),
        KYSELY_IMPORT,
      ),
    ).toEqual([]);
  });

  it("lists only allowed files that exist and do hold SQL", () => {
    for (const [file, why] of Object.entries(ALLOWED)) {
      expect(everywhere, file).toContain(file);
      expect(offenders([file], QUERY, RAW_SQL), `${file} holds no SQL any more`).toEqual([file]);
      expect(why.length).toBeGreaterThan(0);
    }
  });
});
