/** Moves tried between two branches, in percent of the input, largest first; the last is the 1% step. */
const CLIMB_STEPS = [8, 4, 2, 1] as const;

/**
 * Local search over whole-percent allocations (docs/rules.md, comparison rule 6: refined locally in 1%
 * steps): moves a step of the input from one branch to another while that raises the score, the best move
 * first, then halves the step down to 1%. No branch is left below 1%. When every branch's output is concave
 * in its input (each further unit gets a worse price), an allocation no 1% move improves has equal marginal
 * outputs between branches and is the best whole-percent allocation over the group, wherever it started.
 */
export function climbAllocation<C>(
  start: { parts: [C, number][]; score: bigint },
  scoreOf: (parts: [C, number][]) => bigint | undefined,
): { parts: [C, number][]; score: bigint } {
  let { parts, score } = start;
  for (const step of CLIMB_STEPS) {
    for (;;) {
      let move: { parts: [C, number][]; score: bigint } | undefined;
      for (let from = 0; from < parts.length; from++) {
        if (parts[from]![1] - step < 1) continue;
        for (let to = 0; to < parts.length; to++) {
          if (to === from) continue;
          const moved = parts.map(
            ([curve, percent], i) =>
              [curve, i === from ? percent - step : i === to ? percent + step : percent] as [C, number],
          );
          const movedScore = scoreOf(moved);
          if (movedScore !== undefined && movedScore > (move?.score ?? score))
            move = { parts: moved, score: movedScore };
        }
      }
      if (!move) break;
      ({ parts, score } = move);
    }
  }
  return { parts, score };
}
