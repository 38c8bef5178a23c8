/**
 * Runs `fn` repeatedly (after a warm-up) until at least `minMs` have passed and returns the median time
 * of one call in microseconds, taken over batches so that timer resolution does not dominate.
 */
export function microsPerCall(fn: () => unknown, minMs = 300): number {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  const deadline = performance.now() + minMs;
  let batch = 1;
  while (performance.now() < deadline || samples.length < 5) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - started;
    if (elapsed < 2) batch *= 2;
    else samples.push((elapsed * 1000) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The nearest-rank `p`th percentile (0-100) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
