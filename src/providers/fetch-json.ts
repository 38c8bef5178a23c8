import { isAddress } from "viem";

/** Why a third-party HTTP call gave no usable answer (closed; the remote body never travels further). */
export type ProviderHttpFailure = "timeout" | "unreachable" | "server-error" | "malformed";

export class ProviderHttpError extends Error {
  override name = "ProviderHttpError";
  constructor(readonly failure: ProviderHttpFailure) {
    super(failure);
  }
}

/** The most a provider answer may weigh; anything larger is malformed (and is not read further). */
const MAX_BODY_BYTES = 512 * 1024;

/**
 * Calls a third-party API and parses its JSON body, bounded: an abort (the provider's deadline) is
 * `timeout`, an unreachable host `unreachable`, a 5xx `server-error`, an unparsable or oversized body
 * `malformed`. Any other status is returned with its body for the adapter to interpret; the body is only
 * ever read by the adapter, never passed to a client or a log.
 */
export async function fetchProviderJson(
  url: URL,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: unknown },
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal,
    });
  } catch {
    throw new ProviderHttpError(signal.aborted ? "timeout" : "unreachable");
  }
  if (response.status >= 500) {
    // Cancelling the unread body only frees the connection; whether it succeeds changes nothing here.
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderHttpError("server-error");
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ProviderHttpError(signal.aborted ? "timeout" : "unreachable");
  }
  if (text.length > MAX_BODY_BYTES) throw new ProviderHttpError("malformed");
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new ProviderHttpError("malformed");
  }
}

/** Two addresses are the same account (any checksum casing); false when either is not an address. */
export function sameAddress(a: string, b: string): boolean {
  return (
    isAddress(a, { strict: false }) && isAddress(b, { strict: false }) && a.toLowerCase() === b.toLowerCase()
  );
}

/** A base URL that relative paths extend instead of replacing its last segment. */
export const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
