import type { LoadJob } from "../read/load-job.ts";
import type { PoolLoad } from "../read/load-pool-states.ts";
import { type V2PoolRef, v2ReservesRead } from "./read-state.ts";

/** A pair's load: its reserves, in the batch's first round. */
export function v2LoadJob(pool: V2PoolRef, blockNumber: bigint): LoadJob {
  let load: PoolLoad | undefined;
  let requested = false;
  return {
    plan: () => {
      if (requested) return [];
      requested = true;
      return [
        {
          read: v2ReservesRead(pool),
          apply: (outcome) => {
            load = outcome.ok
              ? {
                  status: "loaded",
                  snapshot: {
                    kind: "v2",
                    address: pool.address,
                    blockNumber,
                    ...(outcome.value as { reserve0: bigint; reserve1: bigint }),
                  },
                }
              : { status: "failed", reason: "unreadable", cause: outcome.error };
          },
        },
      ];
    },
    result: () => load ?? { status: "failed", reason: "unreadable" },
  };
}
