import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiDocuments } from "../../scripts/openapi-documents.ts";

type Parameter = { in: string; name: string; description?: string; schema?: { pattern?: string } };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** The Idempotency-Key rule is enforced by the header schema; both places a reader looks must state it. */
describe("the Idempotency-Key rule of swap preparation", () => {
  it("is stated in the OpenAPI header description beside the pattern that enforces it", async () => {
    const doc = (await openApiDocuments()).base as Doc;
    const header = doc.paths["/api/v2/builders/swaps"]?.post?.parameters?.find(
      (parameter) => parameter.in === "header" && parameter.name === "idempotency-key",
    );
    expect(header?.schema?.pattern).toBe("^[A-Za-z0-9_.:-]{8,128}$");
    expect(header?.description).toMatch(/8 to 128 characters of A-Z a-z 0-9 _ \. : -/);
    expect(header?.description).toMatch(/replays the saved outcome/);
    expect(header?.description).toMatch(/409 IDEMPOTENCY_CONFLICT/);
  });

  it("is stated in the builder guide's swap preparation section", () => {
    const guide = readFileSync(new URL("../../docs/api/builders.md", import.meta.url), "utf8");
    const start = guide.indexOf("## Swap preparation");
    const section = guide.slice(start, guide.indexOf("## Receipts", start));
    expect(start).toBeGreaterThan(0);
    expect(section).toMatch(/`Idempotency-Key` is 8 to 128 characters/);
    expect(section).toMatch(/replays its saved outcome/);
    expect(section).toMatch(/409\s+`IDEMPOTENCY_CONFLICT`/);
  });
});
