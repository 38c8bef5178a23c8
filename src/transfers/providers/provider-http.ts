import { fetchProviderJson, ProviderHttpError } from "../../providers/fetch-json.ts";
import type { RouteUnavailableReason } from "../bridge-provider.ts";

export { sameAddress, withSlash } from "../../providers/fetch-json.ts";

/** A bridge call that ended without a usable answer; `reason` is what the route reports. */
export class ProviderCallError extends Error {
  override name = "ProviderCallError";
  constructor(readonly reason: RouteUnavailableReason) {
    super(reason);
  }
}

const REASONS = {
  timeout: "provider-timeout",
  unreachable: "provider-error",
  "server-error": "provider-error",
  malformed: "provider-malformed",
} as const;

/** GETs a bridge API's JSON (see fetchProviderJson); a failed call is the route's closed reason. */
export async function getProviderJson(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  try {
    return await fetchProviderJson(url, { headers }, signal);
  } catch (error) {
    if (error instanceof ProviderHttpError) throw new ProviderCallError(REASONS[error.failure]);
    throw error;
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
