import type { Assessment } from "./quote-types.ts";

const statusRank = { simulated: 0, unverified: 1, failed: 2, expired: 2 } as const;

/**
 * Orders assessed candidates (docs/rules.md, comparison rules 4 and 5): simulated before unverified, reverted,
 * refused and expired ones last (never selectable); among simulated ones by assessed output minus gas cost in output units under the
 * one conversion model, or output alone without a conversion; unverified ones by their original quote. Ties
 * keep the search order (fewer branches first).
 */
export function rankCandidates(assessments: readonly Assessment[]): Assessment[] {
  const value = (a: Assessment) =>
    a.simulation.status === "simulated" ? a.simulation.amountOut - (a.gasCostOut ?? 0n) : a.amountOut;
  return assessments
    .map((assessment, order) => ({ assessment, order }))
    .sort((x, y) => {
      const byStatus =
        statusRank[x.assessment.simulation.status] - statusRank[y.assessment.simulation.status];
      if (byStatus !== 0) return byStatus;
      const [vx, vy] = [value(x.assessment), value(y.assessment)];
      if (vx !== vy) return vx > vy ? -1 : 1;
      return x.order - y.order;
    })
    .map(({ assessment }) => assessment);
}
