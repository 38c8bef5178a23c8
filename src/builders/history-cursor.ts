import { createHmac, timingSafeEqual } from "node:crypto";
import type { Address, Hex } from "viem";
import { z } from "zod";
import { JunctionError } from "../errors/junction-error.ts";
import { BUILDER_CODE_PATTERN } from "./builder-code.ts";
import type { HistoryResume } from "./history.ts";
import { BUILDER_LIMITS } from "./limits.ts";

/** What a history cursor binds: the builder, the collector, the pinned snapshot and where to resume. */
export type HistoryCursor = HistoryResume & { code: string; collector: Address };

/** The cursor was not issued by this deployment for these terms, or was altered; safe to show to clients. */
export class HistoryCursorError extends JunctionError {
  override name = "HistoryCursorError";
  constructor(message: string) {
    super("INVALID_REQUEST", message, { issues: [{ path: "cursor", message }] });
  }
}

const DOMAIN = "junction/history-cursor/v1\n";
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UINT = z.string().regex(/^(0|[1-9][0-9]{0,77})$/);

const Payload = z.strictObject({
  v: z.literal(1),
  code: z.string().regex(BUILDER_CODE_PATTERN),
  collector: z.string().regex(/^0x[0-9a-f]{40}$/),
  finalizedThrough: UINT,
  snapshotHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  block: UINT,
  afterLogIndex: z.number().int().min(0).nullable(),
});

/**
 * Encodes the opaque `nextCursor` (docs/rules.md, history rule 3):
 * `base64url(JSON payload) "." base64url(HMAC-SHA256)`, signed with the deployment's cursor secret, at most
 * 1500 characters (docs/rules.md, limits).
 */
export function encodeHistoryCursor(secret: Uint8Array, cursor: HistoryCursor): string {
  const payload = {
    v: 1,
    code: cursor.code,
    collector: cursor.collector.toLowerCase(),
    finalizedThrough: cursor.snapshot.finalizedThrough.toString(),
    snapshotHash: cursor.snapshot.snapshotHash.toLowerCase(),
    block: cursor.position.block.toString(),
    afterLogIndex: cursor.position.afterLogIndex,
  } satisfies z.input<typeof Payload>;
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const encoded = `${body}.${sign(secret, body)}`;
  if (encoded.length > BUILDER_LIMITS.historyCursorMaxLength)
    throw new RangeError(`history cursor of ${encoded.length} characters`);
  return encoded;
}

/**
 * Verifies and decodes a cursor from `encodeHistoryCursor`: any other string (malformed, altered, signed with
 * another secret, resuming past its own snapshot) is a HistoryCursorError.
 */
export function decodeHistoryCursor(secret: Uint8Array, encoded: string): HistoryCursor {
  const parts = encoded.split(".");
  const [body, signature] = parts;
  if (parts.length !== 2 || !body || !signature || !BASE64URL.test(body) || !BASE64URL.test(signature))
    throw new HistoryCursorError("the cursor is malformed");
  const expected = Buffer.from(sign(secret, body));
  const presented = Buffer.from(signature);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented))
    throw new HistoryCursorError("the cursor was not issued by this service or was altered");
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw new HistoryCursorError("the cursor is malformed");
  }
  const parsed = Payload.safeParse(json);
  if (!parsed.success) throw new HistoryCursorError("the cursor is malformed");
  const p = parsed.data;
  const cursor: HistoryCursor = {
    code: p.code,
    collector: p.collector as Address,
    snapshot: { finalizedThrough: BigInt(p.finalizedThrough), snapshotHash: p.snapshotHash as Hex },
    position: { block: BigInt(p.block), afterLogIndex: p.afterLogIndex },
  };
  if (cursor.position.block > cursor.snapshot.finalizedThrough)
    throw new HistoryCursorError("the cursor is malformed");
  return cursor;
}

function sign(secret: Uint8Array, body: string): string {
  return createHmac("sha256", secret).update(DOMAIN).update(body).digest("base64url");
}
