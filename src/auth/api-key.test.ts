import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, parseApiKey } from "./api-key.ts";

describe("API keys", () => {
  it("have a fixed, scanner-recognisable shape with a visible prefix, and only a hash is kept", () => {
    const key = generateApiKey("jct");
    expect(key.secret).toMatch(/^jct_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(key.secret.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key.hash).toBe(hashApiKey(key.secret));
    expect(key.hash).not.toContain(key.secret.slice(17));
    expect(parseApiKey(key.secret, "jct")).toEqual({ id: key.id });
    expect(generateApiKey("jct").secret).not.toBe(key.secret);
  });

  it("keeps builder and partner keys apart by their prefix", () => {
    const partner = generateApiKey("jpk");
    expect(partner.secret).toMatch(/^jpk_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(parseApiKey(partner.secret, "jpk")).toEqual({ id: partner.id });
    expect(parseApiKey(partner.secret, "jct")).toBeUndefined();
    expect(parseApiKey(generateApiKey("jct").secret, "jpk")).toBeUndefined();
    // The checksum covers the prefix: relabelling a key breaks it.
    expect(parseApiKey(partner.secret.replace(/^jpk_/, "jct_"), "jct")).toBeUndefined();
  });

  it("rejects any single-character change through the checksum, before a database lookup", () => {
    const key = generateApiKey("jct").secret;
    fc.assert(
      fc.property(
        fc.integer({ min: 17, max: key.length - 1 }),
        fc.constantFrom(..."0123456789abcXYZ"),
        (at, char) => {
          const changed = key.slice(0, at) + char + key.slice(at + 1);
          return changed === key || parseApiKey(changed, "jct") === undefined;
        },
      ),
    );
    expect(parseApiKey(key.slice(0, -1), "jct")).toBeUndefined();
    expect(parseApiKey(`x${key}`, "jct")).toBeUndefined();
    expect(parseApiKey("", "jct")).toBeUndefined();
  });
});
