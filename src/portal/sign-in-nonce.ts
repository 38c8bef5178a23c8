import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { JunctionError } from "../errors/junction-error.ts";

/**
 * Sign-in nonces that cost nothing to issue (docs/rules.md, ours: portal sign-in): a nonce carries its own
 * expiry and a MAC under the deployment's shared secret, so issuing one writes nothing and any process of
 * the deployment can check it. Only its use is recorded, at sign-in, until it expires.
 *
 * Layout, all lower-case hex (EIP-4361 nonces are letters and digits, at least 8): 12 digits of expiry in
 * milliseconds since the epoch, 32 of randomness, 32 of HMAC-SHA256 over the first 44.
 */
export const NONCE_LIFETIME_MS = 10 * 60_000;

const EXPIRY_HEX = 12;
const RANDOM_HEX = 32;
const MAC_HEX = 32;
const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${EXPIRY_HEX + RANDOM_HEX + MAC_HEX}}$`);

const mac = (secret: Uint8Array, body: string) =>
  createHmac("sha256", secret).update(body).digest("hex").slice(0, MAC_HEX);

/** A fresh nonce, valid for NONCE_LIFETIME_MS from `now`. */
export function issueSignInNonce(secret: Uint8Array, now: Date): { nonce: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + NONCE_LIFETIME_MS);
  const body = expiresAt.getTime().toString(16).padStart(EXPIRY_HEX, "0") + randomBytes(16).toString("hex");
  return { nonce: body + mac(secret, body), expiresAt };
}

/**
 * When `nonce` expires, if this deployment issued it and it has not expired at `now`; otherwise a 401 that
 * says which (whether it was used is the store's to say).
 */
export function checkSignInNonce(secret: Uint8Array, nonce: string, now: Date): Date {
  const body = nonce.slice(0, EXPIRY_HEX + RANDOM_HEX);
  const given = Buffer.from(nonce.slice(EXPIRY_HEX + RANDOM_HEX), "hex");
  if (!NONCE_PATTERN.test(nonce) || !timingSafeEqual(given, Buffer.from(mac(secret, body), "hex")))
    throw new JunctionError("UNAUTHORIZED", "the nonce was not issued by this service; ask for a new one");
  const expiresAt = new Date(Number.parseInt(nonce.slice(0, EXPIRY_HEX), 16));
  if (expiresAt.getTime() <= now.getTime())
    throw new JunctionError("UNAUTHORIZED", "the nonce expired; ask for a new one");
  return expiresAt;
}
