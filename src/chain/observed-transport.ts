import { custom, type Transport } from "viem";

/** Told when a JSON-RPC request starts; the returned function is told how it ended. */
export type RpcObserver = (method: string) => (outcome: "ok" | "error") => void;

/**
 * Wraps a transport so every JSON-RPC request that goes through it is observed by method and outcome
 * (metrics, and the request counts tests and benchmarks check), without changing what it does.
 */
export function observedTransport(transport: Transport, observe: RpcObserver): Transport {
  return (parameters) => {
    const inner = transport(parameters);
    return custom(
      {
        request: async (args: { method: string; params?: unknown }) => {
          const done = observe(args.method);
          try {
            const result = await inner.request(args as never);
            done("ok");
            return result;
          } catch (error) {
            done("error");
            throw error;
          }
        },
      },
      { retryCount: 0 },
    )(parameters);
  };
}
