import type { ConcentratedPoolState } from "../concentrated/pool-state.ts";
import {
  ConcentratedLoader,
  type ConcentratedReads,
  type PendingRead,
  type PoolLoadFailure,
  type Slot0,
} from "./concentrated-loader.ts";
import type { LoadOptions, PoolLoad } from "./load-pool-states.ts";
import { DEFAULT_WINDOW_TICKS } from "./word-window.ts";

/** One pool of a batch load: what to read next (nothing once done), and its snapshot once read. */
export type LoadJob = { plan: () => PendingRead[]; result: () => PoolLoad };

/** What a concentrated pool's loader starts from: a hint, or for an extension a seed and the words to add. */
export type ConcentratedExtra = ConstructorParameters<typeof ConcentratedLoader>[3];

export function failedJob(reason: PoolLoadFailure): LoadJob {
  return { plan: () => [], result: () => ({ status: "failed", reason }) };
}

/** The loader's start from what earlier loads of the pool saw (`LoadOptions.hints`, by `poolRef`). */
export function hintExtra(options: Pick<LoadOptions, "hints">, ref: string): ConcentratedExtra {
  const hint = options.hints?.get(ref);
  return hint ? { hint: { tick: hint.tick, ticks: hint.initializedTicks ?? [] } } : {};
}

/**
 * A concentrated pool's load over `reads` (undefined: the kind cannot read it here, `unsupported`), its
 * snapshot made by the kind from the loaded state and slot0 (`toSnapshot`).
 */
export function concentratedJob(
  reads: ConcentratedReads | undefined,
  tickSpacing: number,
  options: LoadOptions,
  extra: ConcentratedExtra,
  toSnapshot: (state: ConcentratedPoolState, slot0: Slot0) => (PoolLoad & { status: "loaded" })["snapshot"],
): LoadJob {
  if (!reads) return failedJob("unsupported");
  const loader = new ConcentratedLoader(
    reads,
    tickSpacing,
    options.windowTicks ?? DEFAULT_WINDOW_TICKS,
    extra,
  );
  return {
    plan: () => loader.plan(),
    result: () => {
      if (loader.failure) return { status: "failed", ...loader.failure };
      if (!loader.isComplete()) return { status: "failed", reason: "unreadable" };
      return { status: "loaded", snapshot: toSnapshot(loader.state(), loader.slot0!) };
    },
  };
}
