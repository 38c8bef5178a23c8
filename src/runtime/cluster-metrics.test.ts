import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createClusterTotals, type MetricsSnapshot } from "./cluster-metrics.ts";

/** A worker's registry, shaped like the service's: a counter, a histogram and a gauge. */
function workerRegistry() {
  const registry = new Registry();
  const requests = new Counter({
    name: "t_requests_total",
    help: "h",
    labelNames: ["route"],
    registers: [registry],
  });
  const latency = new Histogram({ name: "t_seconds", help: "h", buckets: [0.1, 1], registers: [registry] });
  const memory = new Gauge({ name: "t_memory_bytes", help: "h", registers: [registry] });
  return {
    snapshot: async () => (await registry.getMetricsAsJSON()) as MetricsSnapshot,
    serve(times: number) {
      for (let i = 0; i < times; i++) {
        requests.inc({ route: "/healthz" });
        latency.observe(0.05);
      }
      memory.set(1000);
    },
  };
}

const value = (text: string, line: string) => {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.split(" ").at(-1));
};

describe("cluster totals", () => {
  it("keeps a dead worker's counters and histograms in the totals, not its gauges", async () => {
    const totals = createClusterTotals();
    const [one, two] = [workerRegistry(), workerRegistry()];
    one.serve(5);
    two.serve(3);
    totals.record(1, await one.snapshot());
    totals.record(2, await two.snapshot());
    const before = await (await totals.aggregate()).metrics();
    expect(value(before, 't_requests_total{route="/healthz"}')).toBe(8);
    expect(value(before, "t_memory_bytes")).toBe(2000);

    // Worker 1 dies; its replacement starts from zero and serves once.
    totals.retire(1);
    const three = workerRegistry();
    three.serve(1);
    totals.record(3, await three.snapshot());
    const after = await (await totals.aggregate()).metrics();
    expect(value(after, 't_requests_total{route="/healthz"}')).toBe(9);
    expect(value(after, "t_seconds_count")).toBe(9);
    expect(value(after, 't_seconds_bucket{le="0.1"}')).toBe(9);
    expect(value(after, "t_seconds_sum")).toBeCloseTo(0.45);
    expect(value(after, "t_memory_bytes")).toBe(2000);

    // A second death: both retired workers' counts stay, once each.
    totals.retire(2);
    const afterTwo = await (await totals.aggregate()).metrics();
    expect(value(afterTwo, 't_requests_total{route="/healthz"}')).toBe(9);
    expect(value(afterTwo, "t_memory_bytes")).toBe(1000);
  });
});
