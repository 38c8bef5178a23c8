import type { ScanProgress } from "../liquidity/pool-index/pool-index.ts";

/** A long scan says where it is at most this often; a scan shorter than this says nothing. */
export const DISCOVERY_PROGRESS_MS = 5_000;

/**
 * The pool index's progress lines for a long scan (a first start on a long chain): every
 * `DISCOVERY_PROGRESS_MS`, the block reached of the head, the pools indexed so far, the rate and the time
 * left at that rate. Each sync is measured from its own first block (after a restart: where it resumed).
 */
export function discoveryProgress(
  progress: (line: string) => void,
  now: () => number = Date.now,
): (scan: ScanProgress) => void {
  let current: { from: bigint; started: number; toldAt: number } | undefined;
  return (scan) => {
    const at = now();
    if (current?.from !== scan.from) current = { from: scan.from, started: at, toldAt: at };
    if (at - current.toldAt < DISCOVERY_PROGRESS_MS) return;
    current.toldAt = at;
    progress(discoveryLine(scan, at - current.started));
  };
}

/** e.g. `pool discovery: block 120000 of 200000 (60%), 1234 pools so far, 8000 blocks/s, about 10 s left`. */
export function discoveryLine(scan: ScanProgress, elapsedMs: number): string {
  const total = Number(scan.to - scan.from + 1n);
  const done = Number(scan.through - scan.from + 1n);
  const rate = done / Math.max(elapsedMs / 1000, 0.001);
  const percent = Math.floor((100 * done) / Math.max(total, 1));
  return `pool discovery: block ${scan.through} of ${scan.to} (${percent}%), ${scan.pools} pools so far, ${Math.round(rate)} blocks/s, about ${roughDuration((total - done) / rate)} left`;
}

/** A rough time left: seconds, then minutes, then hours. */
export function roughDuration(seconds: number): string {
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}
