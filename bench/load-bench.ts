import { createPublicClient, http } from "viem";
import { junctionChain } from "../src/chain/chain.ts";
import type { Manifest, ManifestPool } from "../src/devnet/manifest.ts";
import { poolRef } from "../src/liquidity/pool-index/pool.ts";
import { countRequests } from "../src/liquidity/read/count-requests.ts";
import { loadPoolStates, type PoolRef, type PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { median } from "./measure.ts";

export type LoadTiming = {
  label: string;
  pools: number;
  roundTrips: number;
  /** JSON-RPC requests seen by the transport (all `eth_call`). */
  requests: number;
  calls: number;
  slots: number;
  wallMs: number;
};

/** Native ETH and WETH are one asset to the router (the executor wraps and unwraps). */
const asset = (symbol: string) => (symbol === "ETH" ? "WETH" : symbol);

/** Every routable pool of the pairs along a path of symbols, e.g. LINK -> WETH -> USDC -> DAI. */
export function poolsAlong(manifest: Manifest, path: readonly string[]): ManifestPool[] {
  const legs = path.slice(1).map((to, i) => new Set([path[i]!, to]));
  return manifest.pools.filter(
    (pool) =>
      pool.routable &&
      legs.some(
        (leg) =>
          leg.has(asset(pool.symbols[0])) &&
          leg.has(asset(pool.symbols[1])) &&
          asset(pool.symbols[0]) !== asset(pool.symbols[1]),
      ),
  );
}

/**
 * Loads `pools` at the pinned block `runs` times per mode, counting requests at the transport: cold (no
 * hints), with each pool's tick known (as the pool index could supply), and with the previous snapshots
 * (as a service that quoted the pair a block ago would have).
 */
export async function benchLoad(
  rpcUrl: string,
  manifest: Manifest,
  label: string,
  pools: readonly ManifestPool[],
  runs = 7,
): Promise<{ rows: LoadTiming[]; snapshots: PoolSnapshot[] }> {
  const { transport, counts } = countRequests(http(rpcUrl));
  const client = createPublicClient({ chain: junctionChain(rpcUrl), transport, cacheTime: 0 });
  const blockNumber = await client.getBlockNumber();
  const options = { blockNumber, v4PoolManager: manifest.contracts.v4PoolManager };
  const rows: LoadTiming[] = [];
  let snapshots: PoolSnapshot[] = [];
  const modes = [
    { name: "cold", hint: undefined },
    { name: "tick hints (pool index)", hint: (s: PoolSnapshot & { tick: number }) => ({ tick: s.tick }) },
    { name: "snapshot hints (last block)", hint: (s: PoolSnapshot & { tick: number }) => s },
  ] as const;
  for (const mode of modes) {
    const walls: number[] = [];
    let last: Omit<LoadTiming, "wallMs" | "label"> | undefined;
    for (let run = 0; run < runs; run++) {
      const hint = mode.hint;
      const hints = hint
        ? new Map(snapshots.flatMap((s) => (s.kind === "v2" ? [] : [[poolRef(s), hint(s)] as const])))
        : undefined;
      const before = counts.total;
      const started = performance.now();
      const result = await loadPoolStates(client, pools as unknown as PoolRef[], {
        ...options,
        ...(hints ? { hints } : {}),
      });
      walls.push(performance.now() - started);
      const failed = result.pools.find((load) => load.status === "failed");
      if (failed) throw new Error(`a pool failed to load: ${failed.status === "failed" && failed.reason}`);
      snapshots = result.pools.flatMap((load) => (load.status === "loaded" ? [load.snapshot] : []));
      last = {
        pools: pools.length,
        roundTrips: result.stats.roundTrips,
        requests: counts.total - before,
        calls: result.stats.calls,
        slots: result.stats.slots,
      };
    }
    rows.push({ label: `${label}, ${mode.name}`, ...last!, wallMs: median(walls) });
  }
  return { rows, snapshots };
}
