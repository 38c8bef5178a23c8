import { BaseError } from "viem";
import { ApiError } from "./errors.ts";

/**
 * Runs a chain read for an endpoint: a node that does not answer (any viem error) becomes 503
 * UPSTREAM_UNAVAILABLE with a fixed message, never the remote text; anything else passes through.
 */
export async function fromUpstream<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof BaseError)
      throw new ApiError("UPSTREAM_UNAVAILABLE", "the chain node did not answer");
    throw error;
  }
}
