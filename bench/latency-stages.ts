// How the latency bench (quote-latency.ts) tells one quote's stages and round trips apart by its requests.
import { type RecordedRequest, roundTrips } from "./rpc-recorder.ts";

/**
 * Splits one quote's wall time into the contiguous stages of the latency bench's `STAGES` at the edges of
 * its requests: the first block read ends pinning; state-load reads bound the load; the gap until the first
 * simulation read is local search work; simulation reads (the canonical-block check rides with them) bound
 * the simulation; the rest is ranking and the response. For each stage: its duration and the part of it
 * with a request in flight.
 */
export function stageTimes(
  requests: readonly RecordedRequest[],
  stageOf: (r: RecordedRequest) => string,
  started: number,
  ended: number,
): { ms: number; networkMs: number }[] {
  const of = (stage: string) => requests.filter((r) => stageOf(r) === stage);
  const [blocks, loads, sims] = [of("block"), of("load"), of("simulation")];
  const pinned = blocks[0]?.end ?? started;
  const loadStart = Math.min(...loads.map((r) => r.start), ended);
  const loadEnd = Math.max(...loads.map((r) => r.end), loadStart);
  const simStart = Math.max(Math.min(...sims.map((r) => r.start), ended), loadEnd);
  const simEnd = Math.max(...sims.map((r) => r.end), simStart);
  const marks = [started, pinned, loadStart, loadEnd, simStart, simEnd, ended];
  return marks.slice(1).map((end, i) => {
    const start = marks[i]!;
    const clipped = requests
      .filter((r) => r.end > start && r.start < end)
      .map((r) => ({ ...r, start: Math.max(r.start, start), end: Math.min(r.end, end) }));
    return { ms: Math.max(0, end - start), networkMs: roundTrips(clipped).networkMs };
  });
}

/** The busy periods of one quote's requests (as `roundTrips` counts them), with the requests in each. */
export function waves(
  requests: readonly RecordedRequest[],
): { start: number; end: number; requests: RecordedRequest[] }[] {
  const out: { start: number; end: number; requests: RecordedRequest[] }[] = [];
  for (const request of [...requests].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && request.start <= last.end) {
      last.end = Math.max(last.end, request.end);
      last.requests.push(request);
    } else out.push({ start: request.start, end: request.end, requests: [request] });
  }
  return out;
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

export function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
