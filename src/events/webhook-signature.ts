import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (one v1 per live secret). */
export const SIGNATURE_HEADER = "Junction-Signature";

/** How far a signature's time may be from the receiver's clock before it is refused (replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` and 32 random bytes, base64url. The HMAC key is the whole string. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The hex HMAC-SHA256 of `t.body` under `secret`. */
export function signaturePart(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/**
 * The `Junction-Signature` value for `body` at `timestamp`: one `v1` per secret (two while a rotated
 * secret is still valid), so a receiver holding either verifies.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signaturePart(secret, timestamp, body)}`)].join(
    ",",
  );
}

/**
 * Whether `header` signs `body` under `secret` within the tolerance of `nowSeconds`, compared in constant
 * time (the SDK's `verifyWebhook` is the integrator's copy of this check).
 */
export function signatureValid(
  header: string,
  body: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([key]) => key === "t")?.[1]);
  if (!Number.isSafeInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signaturePart(secret, timestamp, body), "hex");
  return parts
    .filter(([key, value]) => key === "v1" && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .some(([, value]) => timingSafeEqual(Buffer.from(value!, "hex"), expected));
}
