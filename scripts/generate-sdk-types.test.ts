import { describe, expect, it } from "vitest";
import { staleSdkTypes } from "./generate-sdk-types.ts";

describe("SDK types", () => {
  it("match the service's OpenAPI documents (run npm run sdk:generate after an API change)", async () => {
    expect(await staleSdkTypes()).toEqual([]);
  });
});
