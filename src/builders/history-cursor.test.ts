import { randomBytes } from "node:crypto";
import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { decodeHistoryCursor, encodeHistoryCursor, type HistoryCursor } from "./history-cursor.ts";

const secret = randomBytes(32);
const cursor: HistoryCursor = {
  code: "junction-demo",
  collector: "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707",
  snapshot: { finalizedThrough: 1234n, snapshotHash: `0x${"ab".repeat(32)}` },
  position: { block: 1200n, afterLogIndex: 7 },
};

describe("history cursor", () => {
  it("round-trips what it binds", () => {
    expect(decodeHistoryCursor(secret, encodeHistoryCursor(secret, cursor))).toEqual(cursor);
    const whole = { ...cursor, position: { block: 1001n, afterLogIndex: null } };
    expect(decodeHistoryCursor(secret, encodeHistoryCursor(secret, whole))).toEqual(whole);
  });

  it("stays within 1500 characters at the largest values", () => {
    const big = maxUint256;
    const encoded = encodeHistoryCursor(secret, {
      code: "x".repeat(32),
      collector: `0x${"F".repeat(40)}`,
      snapshot: { finalizedThrough: big, snapshotHash: `0x${"F".repeat(64)}` },
      position: { block: big, afterLogIndex: 2 ** 31 },
    });
    expect(encoded.length).toBeLessThanOrEqual(1500);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("rejects a cursor signed with another secret", () => {
    const other = encodeHistoryCursor(randomBytes(32), cursor);
    expect(() => decodeHistoryCursor(secret, other)).toThrow(/not issued by this service or was altered/);
  });

  it("rejects any altered character and any re-signed-looking payload", () => {
    const encoded = encodeHistoryCursor(secret, cursor);
    for (let i = 0; i < encoded.length; i++) {
      if (encoded[i] === ".") continue;
      const altered = `${encoded.slice(0, i)}${encoded[i] === "A" ? "B" : "A"}${encoded.slice(i + 1)}`;
      expect(() => decodeHistoryCursor(secret, altered), `position ${i}`).toThrow();
    }
    const [, signature] = encoded.split(".");
    const forged = Buffer.from(
      JSON.stringify({ v: 1, code: "other-code", collector: cursor.collector, finalizedThrough: "1234" }),
    ).toString("base64url");
    expect(() => decodeHistoryCursor(secret, `${forged}.${signature}`)).toThrow(/altered/);
  });

  it("rejects malformed strings", () => {
    for (const bad of ["", ".", "abc", "a.b.c", "a b.c", `${"A".repeat(10)}.`, "é.é"])
      expect(() => decodeHistoryCursor(secret, bad), JSON.stringify(bad)).toThrow(/malformed|altered/);
  });

  it("rejects a correctly signed payload that resumes past its own snapshot", () => {
    const past = { ...cursor, position: { block: 1235n, afterLogIndex: null } };
    expect(() => decodeHistoryCursor(secret, encodeHistoryCursor(secret, past))).toThrow(/malformed/);
  });
});
