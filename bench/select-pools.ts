import { type Address, zeroAddress } from "viem";
import type { IndexedPool } from "../src/liquidity/pool-index/pool.ts";
import { PoolSet } from "../src/liquidity/pool-index/pool-set.ts";
import { selectPools } from "../src/quote/select-pools.ts";
import { machineLine, table } from "./machine.ts";

/** Universe sizes in pools (`BENCH_SELECT_POOLS=300,3000,10000,30000`); tokens are a twentieth of them. */
const SIZES = (process.env.BENCH_SELECT_POOLS ?? "300,3000,10000,30000").split(",").map(Number);
const HUBS = 5;
const RUNS = 15;

/**
 * `npm run bench -- select-pools`: the cost of choosing a quote's pools (src/quote/select-pools.ts) on
 * synthetic indexes of N pools over N/20 tokens, as a busy chain's: five hub tokens (the first is WETH)
 * in half the pools, the other side drawn towards the better-known tokens, so a hub pair has hundreds of
 * connectors and a tail token a handful. Per size and pair kind: median and worst wall time of one
 * selection over the real PoolSet, and how many pools it kept (the cap is 96).
 */
export async function benchSelectPools(): Promise<string[]> {
  const rows: string[][] = [];
  for (const size of SIZES) {
    const { pools, tokens } = universe(size);
    const set = new PoolSet();
    for (const pool of pools) set.add(pool);
    const source = {
      poolsOf: (token: Address) => set.of(token),
      poolCountOf: (token: Address) => set.count(token),
    };
    const weth = tokens[0]!;
    const pairs: [string, Address, Address][] = [
      ["hub → hub", tokens[0]!, tokens[1]!],
      ["hub → tail", tokens[1]!, tokens[tokens.length - 1]!],
      ["tail → tail", tokens[tokens.length - 2]!, tokens[tokens.length - 1]!],
      ["ETH → hub", zeroAddress, tokens[2]!],
    ];
    // Depths as followed state gives them (here drawn from the pool's address): ranking by them instead.
    const depthOf = (pool: IndexedPool, side: 0 | 1) =>
      (Number.parseInt(("address" in pool ? pool.address : pool.poolId).slice(-6), 16) % 9973) + side;
    for (const [kind, from, to] of pairs) {
      const time = (chosen: typeof source & { depthOf?: typeof depthOf }) => {
        const ms: number[] = [];
        let kept = 0;
        for (let run = 0; run < RUNS; run++) {
          const started = performance.now();
          kept = selectPools(chosen, from, to, weth).length;
          ms.push(performance.now() - started);
        }
        ms.sort((a, b) => a - b);
        return { median: ms[Math.floor(ms.length / 2)]!.toFixed(2), max: ms.at(-1)!.toFixed(2), kept };
      };
      const [byCount, byDepth] = [time(source), time({ ...source, depthOf })];
      rows.push([
        size.toLocaleString("en-US"),
        String(tokens.length),
        kind,
        byCount.median,
        byCount.max,
        `${byDepth.median} (${byDepth.max})`,
        String(byCount.kept),
      ]);
    }
  }
  return [
    "## Choosing a quote's pools at scale",
    "",
    machineLine(
      `synthetic indexes: N pools over N/20 tokens, ${HUBS} hubs in half the pools; ${RUNS} selections per row`,
    ),
    "",
    ...table(
      [
        "Pools",
        "Tokens",
        "Pair",
        "median (ms)",
        "max (ms)",
        "ranked by depth: median (max) ms",
        "Pools kept",
      ],
      rows,
    ),
  ];
}

/**
 * N V2-style pools over N/20 tokens, from a fixed seed: hubs in half the pools, the rest skewed to the head
 * (a pair may have several pools, as fee tiers and pool kinds give it).
 */
function universe(size: number): { pools: IndexedPool[]; tokens: Address[] } {
  let seed = 4663;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
  const tokens = Array.from({ length: Math.max(HUBS + 2, Math.floor(size / 20)) }, (_, i) =>
    address(0x1000 + i),
  );
  const discovery = { block: 1n, blockHash: `0x${"0".repeat(64)}` as const, via: "event" as const };
  const pools: IndexedPool[] = [];
  while (pools.length < size) {
    const a = random() < 0.5 ? Math.floor(random() * HUBS) : Math.floor(tokens.length * random() ** 2);
    const b = Math.floor(tokens.length * random() ** 1.5);
    const fee = [500, 3000, 10_000][Math.floor(random() * 3)]!;
    if (a === b) continue;
    const [token0, token1] = a < b ? [tokens[a]!, tokens[b]!] : [tokens[b]!, tokens[a]!];
    pools.push({ kind: "v2", address: address(0x100000 + pools.length), token0, token1, fee, discovery });
  }
  return { pools, tokens };
}
