import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The prefix of each kind of key, so a leaked key says at a glance (and to a secret scanner) what it opens:
 * `jct` builder keys (`x-api-key`), `jpk` partner keys (`Authorization: Bearer`), `jtk` transfer-estimate
 * customer keys (`X-Service-Api-Key`).
 */
export type KeyPrefix = "jct" | "jpk" | "jtk";

/** `<prefix>_<12-char id>_<32-char secret><6-char checksum>`: fixed shape, so secret scanners can match it. */
const keyPattern = (prefix: KeyPrefix) =>
  new RegExp(`^${prefix}_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$`);
const KEY_PATTERNS: Record<KeyPrefix, RegExp> = {
  jct: keyPattern("jct"),
  jpk: keyPattern("jpk"),
  jtk: keyPattern("jtk"),
};

function base62(bytes: Buffer, length: number): string {
  let out = "";
  for (const byte of bytes) {
    if (out.length === length) break;
    // Rejection sampling keeps every character uniform (248 = 4 × 62).
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length ? out : out + base62(randomBytes(length), length - out.length);
}

/** CRC-32 (IEEE), as secret scanners compute it, rendered as 6 base-62 characters. */
function checksum(text: string): string {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text)) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  let value = (crc ^ 0xffffffff) >>> 0;
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export type NewApiKey = {
  /** The public key id; also the visible prefix `<prefix>_<id>` shown in listings. */
  id: string;
  prefix: string;
  /** The full key: shown once, never stored. */
  secret: string;
  /** SHA-256 of the full key, hex: the only form stored. */
  hash: string;
};

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A new random key of the family `prefix` names (about 190 bits of secret). */
export function generateApiKey(prefix: KeyPrefix): NewApiKey {
  const id = base62(randomBytes(24), 12);
  const body = `${prefix}_${id}_${base62(randomBytes(64), 32)}`;
  const secret = body + checksum(body);
  return { id, prefix: `${prefix}_${id}`, secret, hash: hashApiKey(secret) };
}

/**
 * Checks a presented key's shape and checksum before any database read: a typo or a truncated paste is
 * rejected locally. Returns the key id, or undefined when the key is malformed.
 */
export function parseApiKey(key: string, prefix: KeyPrefix): { id: string } | undefined {
  const match = KEY_PATTERNS[prefix].exec(key);
  if (!match) return undefined;
  const body = key.slice(0, -6);
  return checksum(body) === match[3] ? { id: match[1]! } : undefined;
}
