import { BaseError, type PublicClient, RpcRequestError } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import { throttledCause } from "../chain/node-pace.ts";
import { isTransientRpcError } from "../chain/rpc-errors.ts";
import { isNodeFailure } from "../chain/upstream-error.ts";

/** Pauses between start's attempts to reach the node: 15.5 s in all before it gives up. */
export const REACH_NODE_BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000] as const;

/**
 * Start stopped because of the node: the message names the node (its origin only: a hosted provider's key
 * sits in the URL's path), what it answered, and the setting that fixes it. Never an "unexpected error".
 */
export class NodeStartError extends Error {
  override name = "NodeStartError";
}

/**
 * Start stage: the work that first talks to the node (its chain id, then `work`), retried with backoff
 * while the node's failure is transient (no connection, a timeout, HTTP 5xx or 429), each retry said on a
 * progress line; a deterministic refusal, a wrong chain, or the last failure stops the start with a
 * NodeStartError. Errors of our own (a deployment file that does not match) pass through.
 */
export async function reachNode<T>(
  client: Pick<PublicClient, "getChainId">,
  node: { url: string; setting: string },
  work: () => Promise<T>,
  options: {
    progress: (line: string) => void;
    backoffMs?: readonly number[];
    /** What `work` is, for the line a refusal stops the start with (default: a start-up read). */
    step?: string;
    /** What fixes a deterministic refusal of `work` (default: checking the node is of this chain). */
    remedy?: string;
  },
): Promise<T> {
  const backoff = options.backoffMs ?? REACH_NODE_BACKOFF_MS;
  const origin = new URL(node.url).origin;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const chainId = await client.getChainId();
      if (chainId !== CHAIN_ID)
        throw new NodeStartError(
          `the node at ${origin} (${node.setting}) serves chain ${chainId}, not ${CHAIN_ID}: point ${node.setting} at a node of chain ${CHAIN_ID}`,
        );
      return await work();
    } catch (error) {
      if (!isNodeFailure(error)) throw error;
      const answer = answerOf(error);
      const pause = backoff[attempt];
      if (!isTransientRpcError(error) || pause === undefined) {
        const step = options.step ?? "a start-up read";
        const seconds = Math.round((Date.now() - started) / 1000);
        const what =
          pause !== undefined
            ? `refused ${step}`
            : answeredWithError(error)
              ? `kept refusing ${step} for ${seconds} s (${attempt + 1} attempts)`
              : `did not answer in ${seconds} s (${attempt + 1} attempts)`;
        throw new NodeStartError(
          `the node at ${origin} (${node.setting}) ${what}: ${answer}. ${remedyFor(error, node.setting, options.remedy)}`,
        );
      }
      options.progress(
        `node: ${origin} ${answeredWithError(error) ? "refused" : "did not answer"} (${answer}); trying again in ${pause / 1000} s (attempt ${attempt + 2} of ${backoff.length + 1})`,
      );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Whether the node answered (a JSON-RPC error), rather than failing to (no connection, a timeout, HTTP). */
function answeredWithError(error: unknown): boolean {
  return error instanceof BaseError && error.walk((e) => e instanceof RpcRequestError) !== null;
}

/** What the node answered, in a line: viem's short message and details, never a request's params. */
function answerOf(error: unknown): string {
  let inner: unknown = error;
  while (inner instanceof BaseError && inner.cause instanceof BaseError) inner = inner.cause;
  if (!(inner instanceof BaseError)) return String(error).slice(0, 200);
  const details = inner.details && inner.details !== inner.shortMessage ? ` (${inner.details})` : "";
  const status = (inner as { status?: number }).status;
  const http = status === undefined ? "" : ` with HTTP ${status}`;
  return `${inner.shortMessage.replace(/\.$/, "")}${http}${details}`.replace(/\s+/g, " ").slice(0, 240);
}

/** The setting or step that fixes what the node answered. */
function remedyFor(error: unknown, setting: string, remedy: string | undefined): string {
  if (throttledCause(error))
    return "The node is rate-limiting: set JUNCTION_RPC_MAX_RPS under its limit, or use a plan or node that allows more";
  if (isTransientRpcError(error) && !answeredWithError(error))
    return `Check that ${setting} points at a running node this machine can reach`;
  if (remedy) return remedy;
  return `Check that ${setting} is a JSON-RPC endpoint of chain ${CHAIN_ID} (docs/operating.md, "Choosing a node")`;
}
