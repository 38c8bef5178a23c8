import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from "prom-client";

/** One registry's metrics as `getMetricsAsJSON` gives them: what a worker sends the primary. */
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/** A worker asks the primary for the whole service's metrics, and hears back. */
const METRICS_REQUEST = "junction:cluster-metrics";
const METRICS_REPLY = "junction:cluster-metrics:reply";
/** The primary asks a worker for its own registry, and hears back. */
const COLLECT_REQUEST = "junction:worker-metrics";
const COLLECT_REPLY = "junction:worker-metrics:reply";
/** How long a worker waits for the whole service's metrics before serving its own. */
const PRIMARY_DEADLINE_MS = 5_000;
/** How long the primary waits for a worker's registry before using the last one it sent. */
const WORKER_DEADLINE_MS = 3_000;

type Reply = { type?: string; id?: string; body?: string; contentType?: string; error?: string };
type Collected = { type?: string; id?: string; metrics?: MetricsSnapshot };

/**
 * The totals of `junction start --workers N` (docs/rules.md, ours: metrics): every live worker's last
 * registry, plus what workers that died had counted. A dead worker's counters and histograms (buckets,
 * sum, count) stay in the totals as "retired" values, so a total never drops when a worker is replaced
 * (Prometheus would read a drop as a counter reset); its gauges leave with it.
 */
export function createClusterTotals() {
  const latest = new Map<number, MetricsSnapshot>();
  let retired: Promise<MetricsSnapshot> = Promise.resolve([]);
  return {
    /** Keeps a live worker's latest registry. */
    record(workerId: number, snapshot: MetricsSnapshot): void {
      latest.set(workerId, snapshot);
    },
    /** A worker died: its last counters and histograms join the retired totals. */
    retire(workerId: number): void {
      const last = latest.get(workerId);
      latest.delete(workerId);
      if (!last) return;
      retired = retired.then((earlier) => merge([earlier, monotonicOnly(last)]));
    },
    /** The whole service's registry: live workers' metrics aggregated by prom-client, plus the retired. */
    async aggregate(): Promise<Registry> {
      return AggregatorRegistry.aggregate([...latest.values(), await retired]);
    },
  };
}

/** The metric types whose totals must never drop (prom-client's typings say an enum; its JSON has names). */
const MONOTONIC_TYPES: ReadonlySet<string> = new Set(["counter", "histogram"]);

/** Counters and histograms only: a dead worker's gauges say nothing about the service any more. */
function monotonicOnly(snapshot: MetricsSnapshot): MetricsSnapshot {
  return snapshot.filter((metric) => MONOTONIC_TYPES.has(String(metric.type)));
}

async function merge(snapshots: MetricsSnapshot[]): Promise<MetricsSnapshot> {
  return (await AggregatorRegistry.aggregate(snapshots).getMetricsAsJSON()) as MetricsSnapshot;
}

/**
 * In the primary of `junction start --workers N`: answers a worker's request for the whole service's
 * metrics by collecting every worker's registry and aggregating them with the retired totals (counters and
 * histograms summed; the pool index gauges as the worst worker's), so a scrape through the load balancer
 * sees all workers, and its counters only grow.
 */
export function serveClusterMetrics(): void {
  const totals = createClusterTotals();
  cluster.on("exit", (worker) => totals.retire(worker.id));
  cluster.on("message", (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== METRICS_REQUEST || typeof message.id !== "string") return;
    const id = message.id;
    wholeServiceMetrics(totals).then(
      ({ body, contentType }) => worker.send({ type: METRICS_REPLY, id, body, contentType }),
      (error: Error) => worker.send({ type: METRICS_REPLY, id, error: error.message }),
    );
  });
}

async function wholeServiceMetrics(totals: ReturnType<typeof createClusterTotals>) {
  const registry = await collectAll(totals);
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** Asks every live worker for its registry; one that does not answer in time counts with its last. */
async function collectAll(totals: ReturnType<typeof createClusterTotals>): Promise<Registry> {
  const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
  await Promise.all(
    workers.map((worker) =>
      askWorker(worker!).then(
        (snapshot) => {
          // One that died meanwhile was retired with the registry it sent before.
          if (!worker!.isDead()) totals.record(worker!.id, snapshot);
        },
        () => {
          // Its last registry stands in: the totals keep what it had counted.
        },
      ),
    ),
  );
  return totals.aggregate();
}

function askWorker(worker: Worker): Promise<MetricsSnapshot> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: Collected) => {
      if (message?.type !== COLLECT_REPLY || message.id !== id) return;
      done();
      if (message.metrics) resolve(message.metrics);
      else reject(new Error("the worker sent no metrics"));
    };
    const onExit = () => {
      done();
      reject(new Error("the worker exited"));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error("the worker did not answer"));
    }, WORKER_DEADLINE_MS);
    const done = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    worker.send({ type: COLLECT_REQUEST, id });
  });
}

/** In a worker: sends `registry` to the primary whenever it asks (see serveClusterMetrics). */
export function answerPrimary(registry: Registry): void {
  process.on("message", (message: { type?: string; id?: string }) => {
    if (message?.type !== COLLECT_REQUEST || typeof message.id !== "string") return;
    const id = message.id;
    registry.getMetricsAsJSON().then(
      (metrics) => process.send!({ type: COLLECT_REPLY, id, metrics }),
      // No metrics: the primary counts this worker with the last registry it sent.
      () => process.send!({ type: COLLECT_REPLY, id }),
    );
  });
}

/** In a worker: asks the primary for the whole service's metrics. */
export function askPrimary(): Promise<{ contentType: string; body: string }> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: Reply) => {
      if (message?.type !== METRICS_REPLY || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.body !== undefined) resolve({ contentType: message.contentType!, body: message.body });
      else reject(new Error(message.error ?? "no metrics"));
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the primary did not answer"));
    }, PRIMARY_DEADLINE_MS);
    process.on("message", onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}
