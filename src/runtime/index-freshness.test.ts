import { describe, expect, it } from "vitest";
import { createIndexFreshness, INDEX_STALE_MS, isIndexStale } from "./index-freshness.ts";

/** Seconds as ms since an arbitrary start. */
const s = (seconds: number) => 1_000_000 + seconds * 1_000;

describe("index freshness", () => {
  it("is unknown, and stale, until the index has covered a head the node answered", () => {
    const freshness = createIndexFreshness();
    expect(freshness.age(s(0))).toBeUndefined();
    expect(isIndexStale(freshness, s(0))).toBe(true);
    freshness.observe(100n, undefined, s(0));
    expect(freshness.age(s(1))).toBeUndefined();
    freshness.observe(100n, 100n, s(1));
    expect(freshness.age(s(2))).toBe(1_000);
    expect(isIndexStale(freshness, s(2))).toBe(false);
  });

  it("measures a reader that trails the chain by a save in seconds, not from its last load", () => {
    const freshness = createIndexFreshness();
    // One block a second; the indexer saves every 2 s, the reader loads and reads the head every 2 s.
    freshness.observe(100n, 100n, s(0));
    freshness.observe(102n, 101n, s(2));
    freshness.observe(104n, 103n, s(4));
    expect(freshness.lagBlocks()).toBe(1n);
    // The index reached 103 by s(4): the last head at or below it was read at s(2).
    expect(freshness.age(s(4))).toBe(2_000);
    freshness.observe(106n, 106n, s(6));
    expect(freshness.age(s(6))).toBe(0);
  });

  it("grows the age and the lag of a reader whose indexer stopped, though the reader loads fine", () => {
    const freshness = createIndexFreshness();
    freshness.observe(100n, 100n, s(0));
    // The indexer lost its node: the saved index stays at 100 while this process sees the chain grow.
    for (let t = 2; t <= 40; t += 2) freshness.observe(100n + BigInt(t), 100n, s(t));
    expect(freshness.lagBlocks()).toBe(40n);
    expect(freshness.age(s(40))).toBe(40_000);
    expect(isIndexStale(freshness, s(40))).toBe(true);
    // A new indexer catches up to 120 first: covered as of the reading of 120.
    freshness.observe(141n, 120n, s(41));
    expect(freshness.age(s(41))).toBe(21_000);
    expect(freshness.lagBlocks()).toBe(21n);
  });

  it("grows the age when the node stops answering, and counts a scan's ranges as progress", () => {
    const freshness = createIndexFreshness();
    freshness.observe(100n, 100n, s(0));
    expect(freshness.nodeAnsweredAt()).toBe(s(0));
    expect(isIndexStale(freshness, s(0) + INDEX_STALE_MS)).toBe(false);
    expect(isIndexStale(freshness, s(1) + INDEX_STALE_MS)).toBe(true);
    expect(freshness.progressedAt()).toBe(s(0));
    freshness.progressed(s(5));
    expect(freshness.progressedAt()).toBe(s(5));
    expect(freshness.age(s(5))).toBe(5_000);
  });
});
