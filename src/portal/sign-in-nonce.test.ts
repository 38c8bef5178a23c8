import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkSignInNonce, issueSignInNonce, NONCE_LIFETIME_MS } from "./sign-in-nonce.ts";

const secret = randomBytes(32);
const now = new Date("2030-01-01T12:00:00.000Z");

describe("stateless sign-in nonces", () => {
  it("carry their expiry, are EIP-4361 nonces (letters and digits) and differ each time", () => {
    const { nonce, expiresAt } = issueSignInNonce(secret, now);
    expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    expect(expiresAt.getTime() - now.getTime()).toBe(NONCE_LIFETIME_MS);
    expect(checkSignInNonce(secret, nonce, now)).toEqual(expiresAt);
    expect(issueSignInNonce(secret, now).nonce).not.toBe(nonce);
    // Another process of the deployment, with the same shared secret, accepts it.
    expect(checkSignInNonce(Uint8Array.from(secret), nonce, new Date(now.getTime() + 1000))).toEqual(
      expiresAt,
    );
  });

  it("refuses an expired nonce, and one not issued by this deployment, each with its reason", () => {
    const { nonce, expiresAt } = issueSignInNonce(secret, now);
    expect(() => checkSignInNonce(secret, nonce, expiresAt)).toThrow(/the nonce expired/);
    expect(() => checkSignInNonce(randomBytes(32), nonce, now)).toThrow(/not issued by this service/);
    // A later expiry written over a real nonce breaks its MAC.
    const extended = (expiresAt.getTime() + 3_600_000).toString(16).padStart(12, "0") + nonce.slice(12);
    expect(() => checkSignInNonce(secret, extended, now)).toThrow(/not issued by this service/);
    for (const forged of ["a1b2c3d4e5f6a7b8", nonce.toUpperCase(), `${nonce}00`, nonce.slice(0, -2)])
      expect(() => checkSignInNonce(secret, forged, now)).toThrow(/not issued by this service/);
  });
});
