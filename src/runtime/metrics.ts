import cluster from "node:cluster";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Observer } from "../api/observe.ts";
import type { RpcObserver } from "../chain/observed-transport.ts";
import type { RpcCount } from "../chain/rpc-tally.ts";
import { answerPrimary, askPrimary } from "./cluster-metrics.ts";
import type { Logger } from "./logger.ts";

/** How often the event loop lag is sampled (ms). */
const EVENT_LOOP_SAMPLE_MS = 1000;

/** Which listener answered: {base_url} or {partner_url}. */
export type Host = "base" | "partner";

/** Latency buckets (seconds) from a cached read to a quote near its 25 s deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];

/**
 * The service's Prometheus metrics (`GET /metrics` on {base_url}): requests and latencies per host, route,
 * method, status and error code (quota and capacity refusals are the `QUOTA_EXCEEDED`,
 * `ALLOWANCE_EXHAUSTED`, `RATE_LIMITED` and `BUSY` codes), JSON-RPC requests and latencies per method and
 * outcome, the pool index's block, lag behind the head and sync age, whether the process is the indexer,
 * whether followed pool state follows a newHeads subscription, and node's process metrics (memory, event loop lag, GC) under the `junction_` prefix.
 */
export function createMetrics(sources: {
  /** The block the pool index has synced to, once it has. */
  indexBlock: () => bigint | undefined;
  /** Ms since the pool index last covered the chain head this process sees, once it has. */
  indexAgeMs: () => number | undefined;
  /** Blocks between the chain head this process last saw and the pool index. */
  indexLagBlocks: () => bigint | undefined;
  /** Whether this process holds the indexer lease (follows the chain for every process). */
  isIndexer: () => boolean;
}) {
  const registry = new Registry();
  // In a worker, the primary collects this registry over IPC for the whole service's totals.
  if (cluster.isWorker) answerPrimary(registry);
  // The event loop lag is sampled every second, not prom-client's default 10 ms: each sample is a timer
  // that wakes an idle process (10 ms: 100 wakes a second, a third of what an empty block cost it at 2 s
  // blocks; 100 ms still cost a bare process 3.1 ms of CPU every 2 s, 1 s costs 1.2). A stall still shows
  // whenever a sample falls due inside it: always for one of a second or more, in proportion for shorter.
  collectDefaultMetrics({
    register: registry,
    prefix: "junction_",
    eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
  });
  const requests = new Counter({
    name: "junction_http_requests_total",
    help: "Answered HTTP requests",
    labelNames: ["host", "method", "route", "status", "code"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "junction_http_request_duration_seconds",
    help: "Time from receiving a request to answering it",
    labelNames: ["host", "method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rpcRequests = new Counter({
    name: "junction_rpc_requests_total",
    help: "JSON-RPC requests sent to the node (after coalescing identical in-flight reads)",
    labelNames: ["method", "outcome"] as const,
    registers: [registry],
  });
  const rpcAdaptations = new Counter({
    name: "junction_rpc_adaptations_total",
    help: "Requests the node refused and the service adapted to: `split` (a batch refused as a whole, resent in halves), `throttled` (an HTTP 429, which starts a backoff)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: "junction_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: `delivered` (a 2xx), `retry` (scheduled again), `failed` (the retry schedule ran out)",
    labelNames: ["outcome", "type"] as const,
    registers: [registry],
  });
  const rpcLatency = new Histogram({
    name: "junction_rpc_request_duration_seconds",
    help: "Time the node took to answer a JSON-RPC request",
    labelNames: ["method"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const providerOutcomes = new Counter({
    name: "junction_provider_outcomes_total",
    help: "Third-party quote provider answers per variant: quoted, timeout, unavailable, no-route, invalid-response or error",
    labelNames: ["provider", "variant", "outcome"] as const,
    registers: [registry],
  });
  const providerLatency = new Histogram({
    name: "junction_provider_duration_seconds",
    help: "Time a third-party quote provider took to answer (capped by its deadline)",
    labelNames: ["provider"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const quoteStages = new Histogram({
    name: "junction_quote_stage_duration_seconds",
    help: "Time a completed quote spent per pipeline stage (pin, state, search, providers, simulate, rank)",
    labelNames: ["stage"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const quoteRpc = new Histogram({
    name: "junction_quote_rpc",
    help: "What a completed quote asked of the node: JSON-RPC calls, the HTTP requests that carried them (calls made together travel as one batch), and round trips (busy periods)",
    labelNames: ["count"] as const,
    buckets: [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48],
    registers: [registry],
  });
  const followedMismatches = new Counter({
    name: "junction_followed_state_mismatch_total",
    help: "Followed pools (docs/rules.md, comparison rule 14) a sampled direct read found different; each is read directly from then on",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  let followMode: "subscription" | "polling" | undefined;
  new Gauge({
    name: "junction_followed_state_subscribed",
    help: "1 while followed pool state is stepped by the node's newHeads subscription, 0 while it polls the head (docs/operating.md, JUNCTION_RPC_WS_URL; across workers: the lowest)",
    registers: [registry],
    aggregator: "min",
    collect() {
      if (followMode) this.set(followMode === "subscription" ? 1 : 0);
    },
  });
  new Gauge({
    name: "junction_pool_index_block",
    help: "Block the pool index has synced to (across workers: the lowest)",
    registers: [registry],
    aggregator: "min",
    collect() {
      const block = sources.indexBlock();
      if (block !== undefined) this.set(Number(block));
    },
  });
  new Gauge({
    name: "junction_pool_index_sync_age_seconds",
    help: "Seconds since the pool index last covered the chain head this process reads from its node, whether it indexes or reads the indexer's save (it follows every block; across workers: the oldest)",
    registers: [registry],
    aggregator: "max",
    collect() {
      const age = sources.indexAgeMs();
      if (age !== undefined) this.set(age / 1000);
    },
  });
  new Gauge({
    name: "junction_pool_index_lag_blocks",
    help: "Blocks between the chain head this process last read and the pool index (across workers: the most)",
    registers: [registry],
    aggregator: "max",
    collect() {
      const lag = sources.indexLagBlocks();
      if (lag !== undefined) this.set(Number(lag));
    },
  });
  new Gauge({
    name: "junction_indexer",
    help: "1 when this process is the indexer (holds the indexer lease and follows the chain), 0 when it reads the indexer's saved indexes; across workers: the sum, 1 when healthy",
    registers: [registry],
    aggregator: "sum",
    collect() {
      this.set(sources.isIndexer() ? 1 : 0);
    },
  });
  return {
    /** Counts and times a host's requests. */
    observe(host: Host): Observer {
      return (record) => {
        const route = record.route;
        const status = String(record.status);
        requests.inc({ host, method: record.method, route, status, code: record.code ?? "" });
        latency.observe({ host, method: record.method, route, status }, record.ms / 1000);
      };
    },
    /** Counts and times the JSON-RPC requests of the service's chain client, by method and outcome. */
    rpc: ((method) => {
      const started = performance.now();
      return (outcome) => {
        rpcRequests.inc({ method, outcome });
        rpcLatency.observe({ method }, (performance.now() - started) / 1000);
      };
    }) satisfies RpcObserver,
    /** Counts a refused request the node transport adapted to (json-rpc-http.ts). */
    rpcAdaptation(kind: "split" | "throttled"): void {
      rpcAdaptations.inc({ kind });
    },
    /** Counts a webhook delivery attempt (src/events/deliver-webhooks.ts). */
    webhookAttempt(outcome: "delivered" | "retry" | "failed", type: string): void {
      webhookAttempts.inc({ outcome, type });
    },
    /** Counts a third-party provider's outcome per variant, and times it. */
    provider(outcome: { provider: string; variant: string; outcome: string; ms: number }): void {
      providerOutcomes.inc({
        provider: outcome.provider,
        variant: outcome.variant,
        outcome: outcome.outcome,
      });
      providerLatency.observe({ provider: outcome.provider }, outcome.ms / 1000);
    },
    /** Times each stage of a completed quote, and counts what it asked of the node. */
    quoteStages(timings: Record<string, number>, rpc?: RpcCount): void {
      for (const [stage, ms] of Object.entries(timings)) quoteStages.observe({ stage }, ms / 1000);
      if (!rpc) return;
      quoteRpc.observe({ count: "calls" }, rpc.calls);
      quoteRpc.observe({ count: "requests" }, rpc.requests);
      quoteRpc.observe({ count: "round-trips" }, rpc.roundTrips);
    },
    /** Counts a followed pool a sampled direct read found different (V2, V3 or V4). */
    followedMismatch(kind: string): void {
      followedMismatches.inc({ kind });
    },
    /** How followed pool state follows the head now: by its newHeads subscription, or by polling. */
    followMode(mode: "subscription" | "polling"): void {
      followMode = mode;
    },
    /**
     * The text format a Prometheus scraper reads. In a worker of `junction start --workers N`, the whole
     * service's: the primary sums every worker's metrics (see serveClusterMetrics); should the primary not
     * answer within 5 s, this worker's own, with a comment saying so.
     */
    async scrape(): Promise<{ contentType: string; body: string }> {
      const local = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
      if (!cluster.isWorker) return local();
      return askPrimary().catch(async () => {
        const own = await local();
        return {
          ...own,
          body: `# junction: this worker's metrics only (the primary did not answer)\n${own.body}`,
        };
      });
    },
  };
}

/** One structured access log line per answered request, carrying its trace id. */
export function accessLog(logger: Logger, host: Host): Observer {
  return (record) =>
    logger.info(
      {
        requestId: record.requestId,
        host,
        method: record.method,
        route: record.route,
        status: record.status,
        ...(record.code ? { code: record.code } : {}),
        ms: Math.round(record.ms * 10) / 10,
      },
      "request",
    );
}

/** Several observers as one. */
export const observers =
  (...all: Observer[]): Observer =>
  (record) => {
    for (const observer of all) observer(record);
  };
