import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..");

/** Every non-test TypeScript source under src/, relative to it, with its text. */
const sources = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => ({ file, text: readFileSync(join(SRC, file), "utf8") }));

const using = (pattern: RegExp) =>
  sources
    .filter(({ text }) => pattern.test(text))
    .map(({ file }) => file)
    .sort();

// One key family: builder, partner and transfer keys are one family declared three times, not three stacks.
describe("one key family", () => {
  it("hashes, parses and issues keys in key-family.ts only", () => {
    expect(using(/\b(hashApiKey|parseApiKey|generateApiKey)\b/)).toEqual([
      join("auth", "api-key.ts"),
      join("auth", "key-family.ts"),
    ]);
  });

  it("looks keys up through one repository, which only key-family.ts calls to find, issue or revoke", () => {
    expect(using(/\b(keyByHash|insertKey|revokeKeyRow|listKeyRows|keyRow)\b/)).toEqual([
      join("auth", "key-family.ts"),
      join("store", "repositories", "keys.ts"),
    ]);
    // Only the repository (and the migration that built it) names the keys' tables.
    const query =
      /(selectFrom|insertInto|updateTable|deleteFrom)\(\s*["'](keys|key_rate_counters)["']|\b(from|into|update|join)\s+keys\b|\bkey_rate_counters\b/;
    expect(using(query)).toEqual([
      join("store", "migrations.ts"),
      join("store", "repositories", "keys.ts"),
      join("store", "repositories", "quota-counters.ts"),
      join("store", "schema.ts"),
    ]);
  });

  it("declares each family with defineKeyFamily, one gate at the edge and one command builder", () => {
    expect(using(/\bdefineKeyFamily\(/)).toEqual([
      join("auth", "keys.ts"),
      join("auth", "partner-keys.ts"),
      join("auth", "transfer-keys.ts"),
    ]);
    // The edge authenticates in one middleware; every surface's gate is a declaration for it.
    const edge = sources.filter(({ file }) => file.startsWith(`api${"/"}`) || file.startsWith("api\\"));
    expect(edge.filter(({ text }) => /\.authenticate\(/.test(text)).map(({ file }) => file)).toEqual([
      join("api", "key-access.ts"),
    ]);
    expect(using(/\bkeyAccess\(/).filter((file) => file.startsWith("api"))).toEqual([
      join("api", "builder-access.ts"),
      join("api", "partner-access.ts"),
      join("api", "transfer-access.ts"),
    ]);
    // The operator commands: one builder, each family's commands made by it.
    expect(using(/\bkeyCommands\(/)).toEqual([
      join("cli", "key-commands.ts"),
      join("cli", "partner-key-commands.ts"),
      join("cli", "transfer-key-commands.ts"),
    ]);
  });
});
