import { createTransport, type EIP1193RequestFn, type Transport } from "viem";

/** Read-only methods whose identical concurrent calls may share one request. */
const SHAREABLE = new Set([
  "eth_call",
  "eth_estimateGas",
  "eth_getStorageAt",
  "eth_getBalance",
  "eth_getCode",
  "eth_getLogs",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getTransactionReceipt",
  "eth_getTransactionByHash",
  "eth_blockNumber",
  "eth_chainId",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
]);

export type CoalescingStats = { requests: number; shared: number };

/**
 * Identical in-flight reads share one request, only while it is pending (docs/rules.md, comparison rule 14).
 * The key is the method and its full parameters (block, state overrides and all), so reads that differ in
 * anything never share. Nothing is kept once a request settles: no completed result is ever served from
 * memory. A request pending longer than `maxShareMs` is not joined any more (a new one is sent): after a
 * node stalls and recovers, new reads must not wait on the requests it left hanging.
 */
export function coalescingTransport(
  inner: Transport,
  stats?: CoalescingStats,
  maxShareMs = Number.POSITIVE_INFINITY,
): Transport {
  return (config) => {
    const base = inner(config);
    const pending = new Map<string, { promise: Promise<unknown>; startedAt: number }>();
    const request: EIP1193RequestFn = (args, options) => {
      if (stats) stats.requests++;
      if (!SHAREABLE.has(args.method)) return base.request(args, options);
      const key = `${args.method}:${stableJson(args.params ?? [])}`;
      const existing = pending.get(key);
      if (existing && Date.now() - existing.startedAt < maxShareMs) {
        if (stats) stats.shared++;
        return existing.promise as never;
      }
      const promise: Promise<unknown> = base.request(args, options).finally(() => {
        if (pending.get(key)?.promise === promise) pending.delete(key);
      });
      pending.set(key, { promise, startedAt: Date.now() });
      return promise as never;
    };
    return createTransport({
      key: "coalescing",
      name: `Coalescing ${base.config.name}`,
      type: "coalescing",
      request,
      retryCount: base.config.retryCount,
      retryDelay: base.config.retryDelay,
    });
  };
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` share a key. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : typeof v === "bigint"
        ? `0x${v.toString(16)}`
        : v,
  );
}
