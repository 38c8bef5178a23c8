import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";

/**
 * Whether an RPC failure may be retried elsewhere. Decided from the HTTP status and the JSON-RPC error code,
 * never from message text, which nodes word as they please. A node that answered with a JSON-RPC error has executed or rejected
 * the request deterministically (a revert, invalid params, unknown method): asking another node would
 * only hide it, so it fails closed (docs/rules.md, comparison rule 15). Transport trouble, rate limits and
 * the node's own internal or resource errors are transient.
 */
export function isTransientRpcError(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof HttpRequestError) {
    return error.status === undefined || error.status === 408 || error.status === 429 || error.status >= 500;
  }
  if (error instanceof RpcRequestError) return TRANSIENT_RPC_CODES.has(error.code);
  // A viem-wrapped error (e.g. CallExecutionError) carries its cause; classify that.
  const cause = (error as { cause?: unknown })?.cause;
  return cause !== undefined && cause !== error && isTransientRpcError(cause);
}

/** JSON-RPC codes a healthy node may return for load rather than for the request itself. */
const TRANSIENT_RPC_CODES = new Set([
  -32603, // internal error
  -32005, // limit exceeded (EIP-1474)
  -32002, // resource unavailable (EIP-1474)
  429,
]);
