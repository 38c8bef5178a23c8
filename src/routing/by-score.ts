/** Best first by score; ties keep their order (a stable sort). */
export function sortByScore<T extends { score: bigint }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : 0));
}

/** The first item of the highest score, items without one skipped; undefined when none has one. */
export function best<T extends { score: bigint | undefined }>(
  items: readonly T[],
): (T & { score: bigint }) | undefined {
  let top: (T & { score: bigint }) | undefined;
  for (const item of items)
    if (item.score !== undefined && (!top || item.score > top.score)) top = item as T & { score: bigint };
  return top;
}

/**
 * The `count` best of the items offered, as `sortByScore(all).slice(0, count)` would give them (ties in the
 * order offered, as a stable sort keeps them), without keeping or sorting the rest.
 */
export class TopByScore<T> {
  private readonly top: { item: T; score: bigint }[] = [];
  constructor(private readonly count: number) {}

  offer(item: T, score: bigint): void {
    const { top, count } = this;
    if (top.length === count && score <= top[top.length - 1]!.score) return;
    // After every item scoring at least as much: ties keep their offering order.
    let at = top.length;
    while (at > 0 && top[at - 1]!.score < score) at--;
    top.splice(at, 0, { item, score });
    if (top.length > count) top.pop();
  }

  /**
   * The score an item must beat to be kept once `count` are held (ties lose to the earlier offered), or
   * undefined while fewer are held.
   */
  floor(): bigint | undefined {
    return this.top.length === this.count ? this.top[this.top.length - 1]!.score : undefined;
  }

  items(): T[] {
    return this.top.map((entry) => entry.item);
  }
}
