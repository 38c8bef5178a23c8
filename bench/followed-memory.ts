import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createChainClient } from "../src/chain/create-chain-client.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { readFollowed } from "../src/liquidity/followed-state/read-followed.ts";
import { isRoutable } from "../src/liquidity/pool-index/pool.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { machineLine, table } from "./machine.ts";

/** Heap in use after a full collection. */
function heapUsed(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * `npm run bench -- followed-memory`: the heap held by followed pool state (docs/rules.md, comparison rule 14) for the devnet's
 * routable pools, read as the follower reads them (the held window, twice a quote's, with every
 * initialized tick's gross and net liquidity), and for ten copies of it, standing in for a universe with 10x
 * the pools and ticks.
 */
export async function benchFollowedMemory(devnet: Devnet): Promise<string[]> {
  const { manifest } = devnet;
  const client = createChainClient({ url: devnet.rpcUrl, kind: "private" });
  const index = createPoolIndex({
    client,
    contracts: manifest.contracts,
    fromBlock: BigInt(manifest.deploymentBlock),
  });
  await index.sync();
  const pools = index.pools().filter(isRoutable);
  const block = await client.getBlockNumber();
  const states = await readFollowed(client, pools, block, manifest.contracts.v4PoolManager);
  const ticks = [...states.values()].reduce((sum, s) => sum + (s.kind === "v2" ? 0 : s.liquidityNet.size), 0);
  const rows: string[][] = [];
  for (const copies of [1, 10]) {
    const before = heapUsed();
    const held: Map<string, PoolSnapshot>[] = [];
    for (let i = 0; i < copies; i++)
      held.push(new Map([...states.values()].map((state, n) => [`${i}:${n}`, structuredClone(state)])));
    const used = heapUsed() - before;
    rows.push([
      `${copies}x`,
      String(states.size * copies),
      String(ticks * copies),
      (used / 1024).toFixed(0),
      (used / (states.size * copies)).toFixed(0),
    ]);
    held.length = 0;
  }
  return [
    "## Memory of followed pool state",
    "",
    machineLine(
      `devnet seed ${manifest.seed}; ${pools.length} routable pools, ${ticks} initialized ticks held`,
    ),
    "",
    ...table(["Universe", "Pools", "Ticks", "Heap (KiB)", "Bytes per pool"], rows),
  ];
}
