/**
 * Ordinary least squares: the coefficients β minimising ‖Xβ − y‖², from the normal equations XᵀXβ = Xᵀy
 * solved by Gaussian elimination with partial pivoting. Gas is a count, not money, so doubles are fine here.
 * Throws when the columns are linearly dependent (the scenarios do not pin every coefficient down).
 */
export function leastSquares(rows: readonly (readonly number[])[], y: readonly number[]): number[] {
  const n = rows[0]?.length ?? 0;
  if (rows.length < n) throw new Error(`${rows.length} observations cannot fit ${n} coefficients`);
  // Augmented normal matrix [XᵀX | Xᵀy].
  const a = Array.from({ length: n }, (_, i) => {
    const row = Array.from({ length: n }, (_, j) => rows.reduce((sum, x) => sum + x[i]! * x[j]!, 0));
    row.push(rows.reduce((sum, x, k) => sum + x[i]! * y[k]!, 0));
    return row;
  });
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-9) throw new Error(`coefficient ${col} is not determined by the data`);
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}
