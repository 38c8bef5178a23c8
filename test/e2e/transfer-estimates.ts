import { expect } from "vitest";
import type { Manifest } from "../../src/devnet/manifest.ts";
import type { SpawnedService } from "./spawn-service.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
export type Json = Record<string, any>;
export const PATH = "/api/transfers/v1/routes";
export const KEY_HEADER = "X-Service-Api-Key";

/**
 * `GET /api/transfers/v1/routes` on a spawned service, with the demo customer key unless another (or none,
 * `null`) is given; the body parsed, and checked to carry no stack, remote body or provider credential.
 */
export function transferEstimates(service: () => SpawnedService, manifest: () => Manifest) {
  return async (
    query: Record<string, string>,
    key: string | null = manifest().demoTransfers!.keys.estimates,
  ) => {
    const response = await fetch(`${service().baseUrl}${PATH}?${new URLSearchParams(query)}`, {
      headers: key === null ? {} : { [KEY_HEADER]: key },
    });
    const text = await response.text();
    // Never a stack, a remote body or a provider credential.
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+|stand-in-secret|exploded|<html>/);
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Json };
  };
}
