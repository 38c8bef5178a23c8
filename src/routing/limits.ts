/**
 * The shape of the route search (docs/rules.md, comparison rule 6 and limits): paths of up to 3 hops, splits over up
 * to 3 pool-disjoint branches, a 10% grid then 1% local refinement. The executor's route codec holds routes
 * to the same hop and branch counts.
 */
export const SEARCH_LIMITS = {
  maxHops: 3,
  maxSplitBranches: 3,
  splitGridBps: 1_000,
  splitRefinementBps: 100,
} as const;
