import { describe, expect, it } from "vitest";
import { openApiDocuments } from "../../scripts/openapi-documents.ts";

type Operation = {
  requestBody?: unknown;
  responses: Record<string, { content?: { "application/json"?: { schema?: { $ref?: string } } } }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

describe("both OpenAPI documents", () => {
  it("list 413 PAYLOAD_TOO_LARGE, in the error body, on every operation that takes a body", async () => {
    const documents = await openApiDocuments();
    const withBody: string[] = [];
    for (const doc of [documents.base, documents.partner] as Doc[])
      for (const [path, methods] of Object.entries(doc.paths))
        for (const [method, operation] of Object.entries(methods)) {
          if (!operation.requestBody) continue;
          withBody.push(`${method} ${path}`);
          const schema = operation.responses["413"]?.content?.["application/json"]?.schema;
          expect(schema?.$ref, `${method} ${path}`).toBe("#/components/schemas/ErrorResponse");
        }
    expect(withBody.length).toBeGreaterThanOrEqual(4);
  });
});
