import { describe, expect, it } from "vitest";
import { UsageError } from "./cli-errors.ts";
import { parseExpiry } from "./expiry.ts";

describe("--expires", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it("accepts days, hours, minutes and seconds from now, ISO dates and date-times", () => {
    expect(parseExpiry("30d", now).toISOString()).toBe("2026-12-22T10:00:00.000Z");
    expect(parseExpiry("12h", now).toISOString()).toBe("2026-11-22T22:00:00.000Z");
    expect(parseExpiry("30m", now).toISOString()).toBe("2026-11-22T10:30:00.000Z");
    expect(parseExpiry("90s", now).toISOString()).toBe("2026-11-22T10:01:30.000Z");
    expect(parseExpiry("2027-01-31", now).toISOString()).toBe("2027-01-31T00:00:00.000Z");
    expect(parseExpiry("2027-01-31T08:30:00+02:00", now).toISOString()).toBe("2027-01-31T06:30:00.000Z");
  });

  it("refuses anything else as a usage error", () => {
    for (const bad of [
      "",
      "0d",
      "0s",
      "30",
      "5ms",
      "10M",
      "1.5h",
      "2w",
      "-1d",
      "tomorrow",
      "2027-13-45",
      "1e3h",
      "2027-01-31 08:00",
    ]) {
      expect(() => parseExpiry(bad, now), bad).toThrow(UsageError);
    }
  });
});
