import { isAddress } from "viem";
import type { RouteUnavailableReason } from "../bridge-provider.ts";

/** A provider call that ended without a usable answer; `reason` is what the route reports. */
export class ProviderCallError extends Error {
  override name = "ProviderCallError";
  constructor(readonly reason: RouteUnavailableReason) {
    super(reason);
  }
}

/** The most a provider answer may weigh; anything larger is malformed (and is not read further). */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * GETs `url` and parses its JSON body, bounded: an abort (the provider's deadline) is `provider-timeout`, an
 * unreachable host `provider-error`, an unparsable or oversized body `provider-malformed`. Any status is
 * returned with its body (the adapter decides what a 4xx means); 5xx is `provider-error`. The body is only
 * ever read by the adapter, never passed to a client.
 */
export async function getProviderJson(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json", ...headers }, signal });
  } catch {
    throw new ProviderCallError(signal.aborted ? "provider-timeout" : "provider-error");
  }
  if (response.status >= 500) {
    // Cancelling the unread body only frees the connection; whether it succeeds changes nothing here.
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderCallError("provider-error");
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ProviderCallError(signal.aborted ? "provider-timeout" : "provider-error");
  }
  if (text.length > MAX_BODY_BYTES) throw new ProviderCallError("provider-malformed");
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new ProviderCallError("provider-malformed");
  }
}

/** Runs an adapter's call, turning its ProviderCallError into the declined route it stands for. */
export async function declineOnFailure<T>(
  call: () => Promise<T>,
): Promise<T | { status: "unavailable"; reason: RouteUnavailableReason }> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderCallError) return { status: "unavailable", reason: error.reason };
    throw error;
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
