import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { CHAIN_ID } from "../chain/chain.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { checkSignInMessage, signInSite } from "./sign-in-message.ts";

const site = signInSite("https://portal.example");
const now = new Date("2030-01-01T12:00:00.000Z");
const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

const message = (overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
  createSiweMessage({
    domain: site.domain,
    address,
    uri: site.origin,
    version: "1",
    chainId: CHAIN_ID,
    nonce: "a1b2c3d4e5f6a7b8",
    issuedAt: now,
    expirationTime: minutes(10),
    ...overrides,
  });

function refusal(text: string): string {
  try {
    checkSignInMessage(text, site, now);
  } catch (error) {
    expect(error).toBeInstanceOf(JunctionError);
    expect((error as JunctionError).code).toBe("UNAUTHORIZED");
    return (error as JunctionError).shortMessage;
  }
  throw new Error("expected the message to be refused");
}

describe("checkSignInMessage", () => {
  it("accepts a message for the configured site, chain 4663, within its lifetime", () => {
    expect(checkSignInMessage(message(), site, now)).toEqual({ address, nonce: "a1b2c3d4e5f6a7b8" });
    expect(checkSignInMessage(message({ scheme: "https" }), site, now).nonce).toBe("a1b2c3d4e5f6a7b8");
  });

  it("gives each refusal its own reason", () => {
    const reasons = [
      [message({ expirationTime: minutes(-1) }), /expired at 2030-01-01T11:59:00.000Z/],
      [message({ notBefore: minutes(5) }), /not valid before 2030-01-01T12:05:00.000Z/],
      [message().replace(/^Chain ID: .*\n/m, ""), /no chain ID; sign in on chain 4663/],
      [message({ chainId: 1 }), /for chain 1; sign in on chain 4663/],
      [message().replace(/^Chain ID: .*$/m, "Chain ID: x"), /chain ID is not a number/],
      [message({ domain: "evil.example" }), /another site \(evil\.example\); sign in on portal\.example/],
      [message({ domain: "portal.example:8443" }), /another site/],
      [message({ uri: "https://evil.example/login" }), /URI is not on this site/],
      [message({ uri: "http://portal.example" }), /URI is not on this site/],
      [message({ scheme: "http" }), /scheme http/],
      [message().replace(/^Nonce: .*\n/m, ""), /no nonce/],
      [message().replace(/^Nonce: .*$/m, "Nonce: a1b2-c3d4-e5f6"), /nonce is not letters and digits/],
      [message({ expirationTime: undefined }), /needs an expiration time/],
      [message({ issuedAt: minutes(-60), expirationTime: minutes(10) }), /issuedAt is not recent/],
      [message({ issuedAt: minutes(60), expirationTime: minutes(70) }), /issuedAt is not recent/],
      [message().replace(/^Issued At: .*\n/m, ""), /no issuedAt/],
      ["hello", /not an EIP-4361/],
      [message().padEnd(5000, " "), /too long/],
    ] as const;
    const seen = new Set<string>();
    for (const [text, why] of reasons) {
      const reason = refusal(text);
      expect(reason, text).toMatch(why);
      seen.add(reason);
    }
    // No two reasons read alike, but for the two wrong URIs and the two issuedAt outside the window.
    expect(seen.size).toBe(reasons.length - 2);
  });
});
