import { WebhookSignatureError } from "./errors.ts";
import type { WebhookEvent } from "./event-types.ts";

/** How far a signature's time may be from now before it is refused, as the service checks it (300 s). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type VerifyWebhookOptions = {
  /** Seconds a signature's `t` may be from now (default {@link WEBHOOK_TOLERANCE_SECONDS}). */
  toleranceSeconds?: number;
  /** The current time in ms (default `Date.now()`), for tests. */
  now?: number;
};

/**
 * Checks a webhook delivery and returns its event (docs/api/builders.md, "Events and webhooks", checking
 * the signature): `Junction-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`, each `v1` the HMAC-SHA256 of
 * `"<t>.<body>"` under one of the endpoint's live secrets. `body` is the raw request body, before any JSON
 * parsing; `secret` may list two secrets while one is rotated out. Compared in constant time by WebCrypto
 * (`crypto.subtle.verify`), so it runs in Node 20+, edge runtimes and browsers alike. Throws a
 * {@link WebhookSignatureError} with a closed `reason`.
 */
export async function verifyWebhook(
  body: string,
  header: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const { timestamp, signatures } = parseSignatureHeader(header);
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance)
    throw new WebhookSignatureError(
      "timestamp-out-of-tolerance",
      `the signature's time is ${nowSeconds - timestamp} s from now (at most ${tolerance} allowed)`,
    );
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (!(await anySignatureMatches(secrets, `${timestamp}.${body}`, signatures)))
    throw new WebhookSignatureError("no-matching-signature", "no v1 signature matches the secret and body");
  return parseEvent(body);
}

/** The `t` and the `v1` signatures (as bytes) of a `Junction-Signature` value; other keys are ignored. */
function parseSignatureHeader(header: string | null | undefined): {
  timestamp: number;
  signatures: Uint8Array<ArrayBuffer>[];
} {
  if (header === null || header === undefined || header.trim() === "")
    throw new WebhookSignatureError("missing-header", "no Junction-Signature header");
  const pairs = header.split(",").map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? ["", ""] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const times = pairs.filter(([key]) => key === "t").map(([, value]) => value ?? "");
  const signatures = pairs
    .filter(([key, value]) => key === "v1" && /^[0-9a-fA-F]{64}$/.test(value ?? ""))
    .map(([, value]) => hexBytes(value!));
  if (times.length !== 1 || !/^[0-9]{1,12}$/.test(times[0]!) || signatures.length === 0)
    throw new WebhookSignatureError("malformed", "expected t=<unix seconds> and at least one v1=<64 hex>");
  return { timestamp: Number(times[0]), signatures };
}

async function anySignatureMatches(
  secrets: readonly string[],
  signed: string,
  signatures: readonly Uint8Array<ArrayBuffer>[],
): Promise<boolean> {
  const encoder = new TextEncoder();
  const data = encoder.encode(signed);
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const checks = await Promise.all(
      signatures.map((signature) => crypto.subtle.verify("HMAC", key, signature, data)),
    );
    if (checks.includes(true)) return true;
  }
  return false;
}

function parseEvent(body: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch (cause) {
    throw new WebhookSignatureError("invalid-body", "the signed body is not JSON", { cause });
  }
  const fields = event as Partial<Record<"id" | "type", unknown>> | null;
  if (typeof fields?.id !== "string" || typeof fields.type !== "string")
    throw new WebhookSignatureError("invalid-body", "the signed body is not an event (no id or type)");
  return event as WebhookEvent;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
