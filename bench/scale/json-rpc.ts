/**
 * Plain JSON-RPC over HTTP for building and driving the scale chain. Not viem's client: the build sends
 * tens of thousands of unlocked-account transactions with explicit nonces in large batches, which viem's
 * public actions neither type nor batch by size.
 */

/** anvil refuses request bodies of 2 MiB or more; stay well under it. */
const MAX_BODY_BYTES = 1_500_000;

export type RpcCall = { method: string; params: unknown[] };

export class RpcError extends Error {
  override name = "RpcError";
}

/** One call; throws an RpcError naming the method on a JSON-RPC error. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const [result] = await rpcBatch<T>(url, [{ method, params }]);
  return result!;
}

/**
 * Many calls, sent as JSON-RPC batches of at most MAX_BODY_BYTES each, one batch at a time; results in
 * call order. A call answered with an error throws, naming the call's `label` when the caller gave one.
 */
export async function rpcBatch<T>(
  url: string,
  calls: readonly RpcCall[],
  labels?: readonly string[],
): Promise<T[]> {
  const results: T[] = [];
  for (const chunk of chunksBySize(calls)) {
    const body = `[${chunk.bodies.join(",")}]`;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    if (!response.ok)
      throw new RpcError(`HTTP ${response.status} from ${url}: ${(await response.text()).slice(0, 300)}`);
    const replies = (await response.json()) as { id: number; result?: T; error?: { message: string } }[];
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    for (let i = 0; i < chunk.bodies.length; i++) {
      const index = chunk.first + i;
      const reply = byId.get(index);
      if (!reply || reply.error) {
        const what = labels?.[index] ?? calls[index]!.method;
        throw new RpcError(`${what}: ${reply?.error?.message ?? "no answer"}`);
      }
      results.push(reply.result as T);
    }
  }
  return results;
}

/** Splits calls into consecutive runs whose encoded batch stays under the body limit; ids are call indexes. */
function chunksBySize(calls: readonly RpcCall[]): { first: number; bodies: string[] }[] {
  const chunks: { first: number; bodies: string[] }[] = [];
  let current = { first: 0, bodies: [] as string[] };
  let bytes = 2;
  calls.forEach((call, id) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: call.method, params: call.params });
    if (current.bodies.length > 0 && bytes + body.length + 1 > MAX_BODY_BYTES) {
      chunks.push(current);
      current = { first: id, bodies: [] };
      bytes = 2;
    }
    current.bodies.push(body);
    bytes += body.length + 1;
  });
  if (current.bodies.length > 0) chunks.push(current);
  return chunks;
}

/** A bigint as a JSON-RPC quantity. */
export const quantity = (value: bigint | number): `0x${string}` => `0x${value.toString(16)}`;
