import { custom, numberToHex, type Transport } from "viem";

/**
 * The one place the service's finalized head is decided (docs/rules.md, ours: finality). Every finality
 * check (receipts, history snapshots, the settlement index, activation on `finalized`) reads the block tag
 * `finalized` through the chain client; with `confirmations` unset that is the node's own `finalized`
 * block. With `confirmations` set, the tag is answered with block `latest − confirmations` instead (never
 * below 0): for chains whose node has no useful `finalized` tag (absent, or lagging far behind, as on a
 * plain anvil that mines only on transactions). It trades safety for speed: a reorg deeper than
 * `confirmations` blocks would undo what was declared final.
 */
export function finalityTransport(transport: Transport, confirmations: number | undefined): Transport {
  if (confirmations === undefined) return transport;
  if (!(Number.isInteger(confirmations) && confirmations >= 1))
    throw new RangeError("confirmations must be an integer of at least 1");
  return (parameters) => {
    const inner = transport(parameters);
    return custom(
      {
        request: async (args: { method: string; params?: unknown }) => {
          const params = args.params as unknown[] | undefined;
          if (args.method !== "eth_getBlockByNumber" || params?.[0] !== "finalized")
            return inner.request(args as never);
          const latest = BigInt((await inner.request({ method: "eth_blockNumber" } as never)) as string);
          const head = latest > BigInt(confirmations) ? latest - BigInt(confirmations) : 0n;
          return inner.request({ ...args, params: [numberToHex(head), ...params.slice(1)] } as never);
        },
      },
      { retryCount: 0 },
    )(parameters);
  };
}
