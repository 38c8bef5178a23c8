import { AsyncLocalStorage } from "node:async_hooks";
import { custom, TimeoutError, type Transport } from "viem";

/** The deadline of the request whose work is running, carried across awaits. */
const requestDeadlines = new AsyncLocalStorage<{ deadlineAt: number }>();

/**
 * Runs a request's work under its own time budget: every chain call made on its behalf (directly or deep
 * in a domain function) is bounded by what is left of it; see {@link deadlineTransport}.
 */
export function withRequestDeadline<T>(budgetMs: number, work: () => Promise<T>): Promise<T> {
  return requestDeadlines.run({ deadlineAt: Date.now() + budgetMs }, work);
}

/** Whether the work running now is a request's (a client waits for it), not the background's. */
export function onRequestPath(): boolean {
  return requestDeadlines.getStore() !== undefined;
}

/**
 * Bounds each JSON-RPC call made on a request's behalf by `min(perCallMs, what is left of the request's
 * budget)`, so a frozen node costs a request seconds, not the client library's own timeout per call, and a
 * call is never started past its request's deadline. The call fails with viem's TimeoutError (a node
 * failure: 503 UPSTREAM_UNAVAILABLE `rpc-unavailable`). Calls outside any request (the indexers) keep the
 * transport's own timeout. Wraps the coalescing transport, so each caller of a shared read keeps its own
 * deadline.
 */
export function deadlineTransport(transport: Transport, perCallMs: number): Transport {
  return (parameters) => {
    const inner = transport(parameters);
    return custom(
      {
        request: (args: { method: string; params?: unknown }) => {
          const budget = requestDeadlines.getStore();
          if (!budget) return inner.request(args as never);
          const ms = Math.min(perCallMs, budget.deadlineAt - Date.now());
          if (ms <= 0) return Promise.reject(new TimeoutError({ body: args, url: "request budget spent" }));
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new TimeoutError({ body: args, url: `${ms} ms call deadline` })),
              ms,
            );
          });
          return Promise.race([inner.request(args as never), late]).finally(() => clearTimeout(timer));
        },
      },
      { retryCount: 0 },
    )(parameters);
  };
}
