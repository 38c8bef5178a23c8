import { readFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import type { PublicClient } from "viem";
import { createChainClient } from "../../src/chain/create-chain-client.ts";
import { DeploymentSchema } from "../../src/config/deployment.ts";
import { createFollowedState } from "../../src/liquidity/followed-state/follow-state.ts";
import { snapshotDifference } from "../../src/liquidity/followed-state/same-snapshot.ts";
import { isRoutable } from "../../src/liquidity/pool-index/pool.ts";
import { createPoolIndex } from "../../src/liquidity/pool-index/pool-index.ts";
import { loadPoolStates } from "../../src/liquidity/read/load-pool-states.ts";

/** Pools read directly per request round of the final comparison. */
const CHUNK = 500;

export type FollowedCheck = {
  /** Pools the follower held at the end, of how many routable ones the index has. */
  followed: number;
  indexed: number;
  /** Pools compared with a direct read at the final block, and those that differed (kind and field). */
  compared: number;
  differed: string[];
  /** Samples the follower itself found wrong during the run. */
  sampledMismatches: string[];
  /** Heap the followed state took to hold every pool, per pool (after a full GC before and after). */
  bytesPerPool: number;
};

/**
 * The service's followed pool state at full size, checked: the same code (`createFollowedState`) runs in
 * this process beside the service over the same blocks, straight on the node, and once the last block is
 * mined every pool it follows is compared with a direct read at its head, field by field. Nothing is mined
 * during the comparison, so no read races a block (sample-check.ts says why that matters on anvil).
 */
export async function startFollowedCheck(input: {
  rpcUrl: string;
  deploymentPath: string;
}): Promise<{ finish: () => Promise<FollowedCheck> }> {
  const deployment = DeploymentSchema.parse(JSON.parse(readFileSync(input.deploymentPath, "utf8")));
  const { contracts } = deployment;
  const client = createChainClient({ url: input.rpcUrl, kind: "private" }) as PublicClient;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(deployment.poolsFromBlock) });
  await index.sync();
  const sampledMismatches: string[] = [];
  let left = Number.POSITIVE_INFINITY;
  const poolManager = contracts.v4PoolManager;
  const heapBefore = settledHeap();
  const followed = createFollowedState({
    client,
    pools: () => index.pools(),
    ...(poolManager ? { poolManager } : {}),
    staleAfterMs: 600_000,
    onAdopted: (progress) => {
      left = progress.left;
    },
    onMismatch: (pool, field) => sampledMismatches.push(`${pool.kind} ${field}`),
  });
  while (left > 0) await followed.step();
  const bytesPerPool = (settledHeap() - heapBefore) / Math.max(1, followed.followed());
  const stepper = followed.start({ pollMs: 500, onError: () => {} });
  return {
    finish: async () => {
      await stepper.stop();
      await followed.step();
      const head = followed.head()!;
      const pools = index.pools().filter(isRoutable);
      const differed: string[] = [];
      let compared = 0;
      for (let from = 0; from < pools.length; from += CHUNK) {
        const chunk = pools.slice(from, from + CHUNK);
        const { pools: loads } = await loadPoolStates(client, chunk, {
          blockNumber: head.number,
          ...(poolManager ? { v4PoolManager: poolManager } : {}),
        });
        loads.forEach((load, i) => {
          const snapshot = followed.snapshotAt(chunk[i]!, head);
          if (!snapshot || load.status !== "loaded") return;
          compared++;
          const field = snapshotDifference(snapshot, load.snapshot);
          if (field) differed.push(`${chunk[i]!.kind} ${field}`);
        });
      }
      return {
        followed: followed.followed(),
        indexed: pools.length,
        compared,
        differed,
        sampledMismatches,
        bytesPerPool,
      };
    },
  };
}

/** The heap in use after a full garbage collection (V8's `gc`, exposed for this process). */
function settledHeap(): number {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}
