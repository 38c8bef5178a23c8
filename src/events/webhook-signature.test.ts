import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newSigningSecret, signatureHeader, signatureValid } from "./webhook-signature.ts";

describe("webhook signatures", () => {
  const body = JSON.stringify({ id: "evt_1", type: "settlement.finalized" });
  const secret = newSigningSecret();
  const now = 1_764_403_200;

  it("signs t.body with HMAC-SHA256 of the whole secret, as the docs' few lines check it", () => {
    const header = signatureHeader([secret], now, body);
    const expected = createHmac("sha256", secret).update(`${now}.${body}`).digest("hex");
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it("verifies under the secret and the time window only, and a tampered body never", () => {
    const header = signatureHeader([secret], now, body);
    expect(signatureValid(header, body, secret, now)).toBe(true);
    expect(signatureValid(header, body, secret, now + 300)).toBe(true);
    expect(signatureValid(header, body, secret, now + 301)).toBe(false);
    expect(signatureValid(header, `${body} `, secret, now)).toBe(false);
    expect(signatureValid(header, body, newSigningSecret(), now)).toBe(false);
    expect(signatureValid(header.replace(`t=${now}`, `t=${now + 1}`), body, secret, now)).toBe(false);
    for (const malformed of ["", "t=abc,v1=00", `t=${now}`, `t=${now},v1=zz`, `v1=${"0".repeat(64)}`])
      expect(signatureValid(malformed, body, secret, now)).toBe(false);
  });

  it("carries one v1 per live secret during a rotation, so a receiver holding either verifies", () => {
    const next = newSigningSecret();
    const header = signatureHeader([next, secret], now, body);
    expect(header.split(",").filter((part) => part.startsWith("v1="))).toHaveLength(2);
    expect(signatureValid(header, body, secret, now)).toBe(true);
    expect(signatureValid(header, body, next, now)).toBe(true);
  });
});
