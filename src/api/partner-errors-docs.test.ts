import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PARTNER_QUOTE_ERRORS } from "../partners/partner-quote.ts";

/**
 * The partner quote's `error` is a closed list (docs/rules.md, errors: partner): the OpenAPI enum is built
 * from PARTNER_QUOTE_ERRORS, and the partner guide's table must name exactly the same codes.
 */
describe("the partner guide's closed list of quote errors", () => {
  it("names every code the API can answer, and no other", () => {
    const guide = readFileSync(new URL("../../docs/api/partner.md", import.meta.url), "utf8");
    const header = "| `error` | Meaning |\n|---|---|\n";
    const start = guide.indexOf(header);
    expect(start).toBeGreaterThan(0);
    const rows = guide.slice(start + header.length, guide.indexOf("\n\n", start));
    const documented = [...rows.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...PARTNER_QUOTE_ERRORS].sort());
  });
});
