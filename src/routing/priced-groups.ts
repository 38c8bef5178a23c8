/** One path's values (output, less gas where converted) at the shares the price search reads. */
export type PricedRow<C> = {
  curve: C;
  pools: ReadonlySet<string>;
  /**
   * The value at `shares[k]`, as a float, read only when the search needs it (each at most once): -Infinity
   * where the path cannot fill that share.
   */
  valueAt: (k: number) => number;
  /** At least `valueAt(k)` for each k, known without quoting (Infinity where nothing better is known). */
  ceilings: readonly number[];
};

/** A group of pool-disjoint paths and the share (%) each would take at the price it was found at. */
export type PricedGroup<C> = { members: C[]; shares: number[] };

export type Worth = { row: number; g: number; share: number };

/**
 * The groups the split's optimum favours, found by the input's marginal price (the allocation's convex dual,
 * docs/rules.md, comparison rule 6): at a price λ per percent of input a path is worth
 * g(λ) = max over its shares p of value(p) − λ·p, and a group of pool-disjoint paths Σ g. λ is bisected
 * until the group of greatest worth (found exactly, by branch and bound over the paths sorted by worth)
 * takes the whole input; the `count` best groups of full size at either end of the final bracket are
 * returned. A path that ranks low alone (a small pool at a good price, one sharing a pool with the best
 * path) is found here when its worth beside the others is high.
 *
 * A value is quoted only where its ceiling could still change a path's worth at the price being tried:
 * near the final price most paths' ceilings say they are worth nothing, and at the first, low, prices a
 * path's largest share usually settles it. Every g is the one the values at all shares would give, to the
 * last bit (ties to the smallest share, as a scan in share order keeps them), so the groups are too.
 *
 * The values are floats: they only choose which groups the search tries; every amount is re-quoted exactly.
 */
export function pricedGroups<C>(
  rows: readonly PricedRow<C>[],
  shares: readonly number[],
  options: { maxBranches: number; count: number },
): PricedGroup<C>[] {
  const { maxBranches, count } = options;
  // Each pair compared once for all the bisection's prices: 0 not yet, 1 disjoint, 2 sharing a pool.
  const pairs = new Uint8Array(rows.length * rows.length);
  const disjoint = (a: number, b: number) => {
    const at = a * rows.length + b;
    if (pairs[at] === 0) {
      pairs[at] = 1;
      const [small, large] = [rows[a]!.pools, rows[b]!.pools];
      for (const pool of small)
        if (large.has(pool)) {
          pairs[at] = 2;
          break;
        }
    }
    return pairs[at] === 1;
  };
  // Values as read, NaN until then (a value is never NaN).
  const known = new Float64Array(rows.length * shares.length).fill(Number.NaN);
  const value = (row: number, k: number) => {
    const at = row * shares.length + k;
    let v = known[at]!;
    if (Number.isNaN(v)) {
      v = rows[row]!.valueAt(k);
      known[at] = v;
    }
    return v;
  };
  // Plain loops: this runs for every path at each of the bisection's 26 prices.
  const terms = new Float64Array(shares.length);
  const worthAt = (lambda: number): Worth[] => {
    const worth: Worth[] = [];
    for (let index = 0; index < rows.length; index++) {
      const found = pathWorth(rows[index]!.ceilings, (k) => value(index, k), shares, lambda, terms);
      if (found) worth.push({ row: index, ...found });
    }
    return worth.sort((a, b) => b.g - a.g);
  };
  const best = (lambda: number, size: number | undefined, limit: number) =>
    bestGroups(worthAt(lambda), disjoint, maxBranches, size, limit);

  // At the highest average rate any path gets, no path is worth anything; at 0, every path takes its most.
  let low = 0;
  let high = highestRate(rows, shares, value);
  for (let i = 0; i < 24; i++) {
    const lambda = (low + high) / 2;
    const [top] = best(lambda, undefined, 1);
    const total = top ? top.reduce((sum, entry) => sum + entry.share, 0) : 0;
    if (total > 100) low = lambda;
    else high = lambda;
  }
  const groups = new Map<string, PricedGroup<C>>();
  for (const lambda of [low, high]) {
    const found = best(lambda, maxBranches, count);
    for (const group of found.length > 0 ? found : best(lambda, undefined, 1)) {
      if (group.length < 2) continue;
      const key = group
        .map((entry) => entry.row)
        .sort((a, b) => a - b)
        .join(",");
      if (!groups.has(key))
        groups.set(key, {
          members: group.map((entry) => rows[entry.row]!.curve),
          shares: group.map((entry) => entry.share),
        });
    }
  }
  return [...groups.values()];
}

/**
 * A path's worth at price `lambda`, g = max over its shares of value − λ·share, and the share that gives it:
 * exactly what a scan of every value in share order gives (ties to the smallest share; undefined when no
 * share is worth anything), reading a value only where its ceiling could still beat or tie the best found.
 * The share of the highest ceiling is read first. `terms` is scratch space, one slot per share.
 * Exported for its test against that scan.
 */
export function pathWorth(
  ceilings: readonly number[],
  value: (k: number) => number,
  shares: readonly number[],
  lambda: number,
  terms: Float64Array,
): { g: number; share: number } | undefined {
  let first = -1;
  for (let k = 0; k < shares.length; k++) {
    terms[k] = ceilings[k]! - lambda * shares[k]!;
    if (terms[k]! > 0 && (first < 0 || terms[k]! > terms[first]!)) first = k;
  }
  // No share's ceiling is worth anything at this price.
  if (first < 0) return undefined;
  let [g, at] = [0, -1];
  for (let i = -1; i < shares.length; i++) {
    const k = i < 0 ? first : i;
    if ((i >= 0 && k === first) || terms[k]! < g || terms[k]! <= 0) continue;
    const w = value(k) - lambda * shares[k]!;
    if (w > g || (w === g && g > 0 && k < at)) [g, at] = [w, k];
  }
  return at < 0 ? undefined : { g, share: shares[at]! };
}

/**
 * The highest average rate (value per percent) any path gets at any share, and 0 if none is positive: the
 * paths whose ceilings promise the most are read first, and a share whose ceiling cannot beat the rate
 * found so far is not read.
 */
function highestRate<C>(
  rows: readonly PricedRow<C>[],
  shares: readonly number[],
  value: (row: number, k: number) => number,
): number {
  const promise = (row: PricedRow<C>) => Math.max(...row.ceilings.map((c, k) => c / shares[k]!));
  const promised = rows.map((row, index) => ({ index, most: promise(row) })).sort((a, b) => b.most - a.most);
  let high = 0;
  for (const { index, most } of promised) {
    if (most <= high) break;
    const ceilings = rows[index]!.ceilings;
    for (let k = 0; k < shares.length; k++) {
      if (ceilings[k]! / shares[k]! <= high) continue;
      const rate = value(index, k) / shares[k]!;
      if (rate > high) high = rate;
    }
  }
  return high;
}

/**
 * The `limit` pool-disjoint groups of greatest total worth, of `size` members (any size up to `maxBranches`
 * when undefined), best first. `worth` is sorted by g, highest first (every g positive), so a group's total
 * is bounded by its sum so far plus the next g's, as many as it has free slots: once that cannot beat the
 * last kept, no later one can. Exported for its test against an enumeration of every group.
 */
export function bestGroups(
  worth: readonly Worth[],
  disjoint: (a: number, b: number) => boolean,
  maxBranches: number,
  size: number | undefined,
  limit: number,
): Worth[][] {
  const kept: { group: Worth[]; total: number }[] = [];
  const floor = () => (kept.length < limit ? 0 : kept[kept.length - 1]!.total);
  const keep = (group: readonly Worth[], total: number) => {
    if (total <= floor()) return;
    kept.push({ group: [...group], total });
    kept.sort((a, b) => b.total - a.total);
    if (kept.length > limit) kept.pop();
  };
  // The group being grown, as a stack: copied only when kept (this visits every disjoint combination the
  // bound leaves, at each of the bisection's prices).
  const most = size ?? maxBranches;
  const group: Worth[] = [];
  const visit = (total: number, from: number) => {
    const slots = most - group.length;
    for (let i = from; i < worth.length; i++) {
      const entry = worth[i]!;
      // Summed in the order a group's total is (float addition is monotone, so no group can exceed it).
      let bound = total;
      for (let k = i; k < i + slots && k < worth.length; k++) bound += worth[k]!.g;
      if (bound <= floor()) break;
      let free = true;
      for (let k = 0; free && k < group.length; k++) free = disjoint(group[k]!.row, entry.row);
      if (!free) continue;
      group.push(entry);
      if (size === undefined || group.length === size) keep(group, total + entry.g);
      if (group.length < most) visit(total + entry.g, i + 1);
      group.pop();
    }
  };
  visit(0, 0);
  return kept.map((entry) => entry.group);
}
