import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSettlementIndex } from "../src/builders/settlement-index.ts";
import { settlementSources } from "../src/builders/settlement-logs.ts";
import { junctionChain } from "../src/chain/chain.ts";
import { createChainClient } from "../src/chain/create-chain-client.ts";
import { nonfungiblePositionManagerAbi } from "../src/contracts/abis/NonfungiblePositionManager.ts";
import { startAnvil } from "../src/devnet/anvil.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import type { PoolIndexPersistence } from "../src/liquidity/pool-index/persistence.ts";
import { createPoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { buildExecutorSwap } from "../src/routing/executor-calldata.ts";
import { createStore } from "../src/store/create-store.ts";
import { loadPoolIndex, savePoolIndexSync } from "../src/store/repositories/pool-index.ts";
import { type RpcProxy, startRpcProxy } from "../test/rpc-proxy.ts";
import { machineLine, table } from "./machine.ts";
import { median } from "./measure.ts";

/**
 * Blocks added on top of the devnet, with a pool created and a settled swap sent every fifth of the way.
 * 100,000 by default; `BENCH_RESTART_BLOCKS` sets another count.
 */
const EXTRA_BLOCKS = Number(process.env.BENCH_RESTART_BLOCKS ?? 100_000);
const POOL_EVERY = Math.max(1, Math.floor(EXTRA_BLOCKS / 5));
const RUNS = 3;

/**
 * `npm run bench -- restart`: what a start costs the pool index on a long chain, before and after the index
 * was persisted. The chain grows on a second anvil forking the devnet with `--prune-history`: anvil 1.7
 * hashes its whole state on every mined block when it does not fork (the seeded devnet then mines about
 * 20 blocks a second), while a pruned fork mines thousands a second at any height. The fork serves the
 * devnet's blocks and logs from the devnet and its own from memory: one chain to every client. It grows by EXTRA_BLOCKS blocks with a new V3 pool every fifth of them; then the index syncs
 * from block 0 with no saved state (every start before persistence), once with persistence (the first
 * start: scan and save), and again from the saved state (a restart), and after 1,000 more blocks. Wall
 * time, `eth_getLogs` calls and all RPC requests per sync, on PGlite in memory.
 */
export async function benchIndexRestart(devnet: Devnet, log: (line: string) => void): Promise<string[]> {
  const fork = await startAnvil({ forkUrl: devnet.rpcUrl, pruneHistory: true });
  try {
    return await benchOnChain(devnet, fork.rpcUrl, log);
  } finally {
    await fork.stop();
  }
}

async function benchOnChain(devnet: Devnet, rpcUrl: string, log: (line: string) => void): Promise<string[]> {
  const chain = junctionChain(rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl, { timeout: 120_000 }) });
  const tester = createTestClient({
    chain,
    mode: "anvil",
    transport: http(rpcUrl, { timeout: 120_000 }),
  });
  const wallet = createWalletClient({
    chain,
    account: privateKeyToAccount(devnet.manifest.accounts[8]!.privateKey as Hex),
    transport: http(rpcUrl),
  });
  const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
  const pairs = [
    ["GEM", "TINY"],
    ["MOON", "FROG"],
    ["LINK", "GEM"],
    ["AAVE", "TINY"],
    ["UNI", "FROG"],
  ] as const;
  for (let mined = 0, i = 0; mined < EXTRA_BLOCKS; mined += POOL_EVERY, i++) {
    // In slices, so progress shows and no call outlasts a request timeout.
    for (let left = POOL_EVERY - 1; left > 0; left -= 5_000)
      await tester.mine({ blocks: Math.min(left, 5_000) });
    const [a, b] = pairs[i % pairs.length]!.map(token) as [Hex, Hex];
    const [token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    const hash = await wallet.sendTransaction({
      to: devnet.manifest.contracts.v3PositionManager!,
      data: encodeFunctionData({
        abi: nonfungiblePositionManagerAbi,
        functionName: "createAndInitializePoolIfNecessary",
        args: [token0, token1, 100, 2n ** 96n],
      }),
    });
    await client.waitForTransactionReceipt({ hash });
    // And one attributed swap through the executor: a `Settled` event for the settlement index to find.
    const swap = buildExecutorSwap({
      executor: devnet.manifest.contracts.executor,
      tokenIn: zeroAddress,
      tokenOut: token("DAI"),
      amountIn: 10n ** 16n,
      minOut: 1n,
      recipient: wallet.account.address,
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3_600),
      maxRouteFeeBps: 50,
      maxBuilderFeeBps: devnet.manifest.junction.demoBuilder.builderFeeBps,
      builderId: devnet.manifest.junction.demoBuilder.builderId,
      route: {
        branches: [{ amountIn: 10n ** 16n, hops: [{ kind: "v3", currencyOut: token("DAI"), fee: 3000 }] }],
      },
    });
    const settled = await client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: swap.to, data: swap.data, value: swap.value }),
    });
    if (settled.status !== "success") throw new Error("the bench's settled swap reverted");
    log(`restart: chain at block ${await client.getBlockNumber()}`);
  }
  const height = await client.getBlockNumber();

  // The same starts three times: on the node itself, behind a proxy refusing log reads over 2,000 blocks
  // as many hosted endpoints do (the scanner learns the limit and keeps within it), and the same 40 ms away,
  // as a hosted node is, where every range is a round trip.
  const direct = await startRpcProxy(rpcUrl);
  const proxy = await startRpcProxy(rpcUrl);
  proxy.limits = { logs: { blocks: LIMITED_RANGE } };
  const far = await startRpcProxy(rpcUrl);
  far.limits = { logs: { blocks: LIMITED_RANGE } };
  far.mode = { kind: "delay", ms: 40 };
  const limited = `${LIMITED_RANGE.toLocaleString("en-US")}-block log limit`;
  const rows: string[][] = [];
  try {
    for (const [node, through] of [
      ["anvil", direct],
      [limited, proxy],
      [`${limited}, 40 ms away`, far],
    ] as const) {
      rows.push(...(await measureStarts({ devnet, node, ...countingClient(through), tester, log })));
    }
  } finally {
    for (const each of [direct, proxy, far]) await each.close();
  }
  return [
    `### Pool and settlement index start-up on a ${height.toLocaleString("en-US")}-block chain`,
    "",
    machineLine(
      `anvil on loopback (the devnet and a pruned fork growing it), PGlite in memory, median of ${RUNS} runs where repeated`,
    ),
    "",
    ...table(
      [
        "Node",
        "Start",
        "Synced to block",
        "Blocks scanned",
        "Found",
        "Wall ms",
        "eth_getLogs",
        "RPC requests",
      ],
      rows,
    ),
  ];
}

const LIMITED_RANGE = 2_000;

/**
 * The service's own chain client (its transport, no retries of a refused range) through `proxy`, and what
 * reached the node since the last reset, as the proxy saw it: `eth_getLogs` calls and HTTP requests.
 */
function countingClient(proxy: RpcProxy) {
  const client = createChainClient({ url: proxy.url, kind: "private" });
  let base = { getLogs: 0, requests: 0 };
  const seen = () => ({
    getLogs: proxy.calls.filter((method) => method === "eth_getLogs").length,
    requests: proxy.requests,
  });
  const counts = {
    reset: () => {
      base = seen();
    },
    read: () => {
      const now = seen();
      return { getLogs: now.getLogs - base.getLogs, requests: now.requests - base.requests };
    },
  };
  return { client, counts };
}

/**
 * The pool index from block 0 with no saved state, then with persistence (scan and save, restart, restart
 * after 1,000 more blocks), and the settlement index on an empty database and at a restart.
 */
async function measureStarts(bench: {
  devnet: Devnet;
  node: string;
  client: PublicClient;
  counts: { reset: () => void; read: () => { getLogs: number; requests: number } };
  tester: { mine: (args: { blocks: number }) => Promise<void> };
  log: (line: string) => void;
}): Promise<string[][]> {
  const { devnet, node, client, counts, tester, log } = bench;
  const store = await createStore({ dataDir: null });
  const persistence: PoolIndexPersistence = {
    load: (sinceVersion) => loadPoolIndex(store.db, sinceVersion),
    save: async (change) => {
      await savePoolIndexSync(store.db, change);
    },
  };
  const contracts = devnet.manifest.contracts;
  const measure = async (persisted: boolean) => {
    const index = createPoolIndex({
      client,
      contracts,
      fromBlock: 0n,
      ...(persisted ? { persistence } : {}),
    });
    counts.reset();
    const started = performance.now();
    const result = await index.sync();
    return { ms: performance.now() - started, ...counts.read(), pools: index.pools().length, result };
  };
  const rows: string[][] = [];
  const row = async (name: string, persisted: boolean, runs: number) => {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(persisted));
    const last = results.at(-1)!;
    rows.push([
      node,
      name,
      String(last.result.to),
      String(last.result.to - last.result.from + 1n),
      `${last.pools} pools`,
      median(results.map((r) => r.ms)).toFixed(0),
      String(last.getLogs),
      String(last.requests),
    ]);
    log(`restart: ${node}, ${name} done`);
  };
  // The settlement index over the same chain: a fresh database scans from the collector's deployment;
  // a restart reads its saved block and scans only what finalized since.
  const settlementRows = async () => {
    const settlementStore = await createStore({ dataDir: null });
    try {
      const settlements = createSettlementIndex({
        client,
        db: settlementStore.db,
        sources: settlementSources(contracts),
        deploymentBlock: BigInt(devnet.manifest.deploymentBlock),
      });
      for (const name of ["settlement index, empty database", "settlement index restart"]) {
        counts.reset();
        const started = performance.now();
        const result = await settlements.sync();
        const ms = performance.now() - started;
        const counted = counts.read();
        rows.push([
          node,
          name,
          String(result.to),
          String(result.to >= result.from ? result.to - result.from + 1n : 0n),
          `${result.events} settlements`,
          ms.toFixed(0),
          String(counted.getLogs),
          String(counted.requests),
        ]);
      }
    } finally {
      await settlementStore.close();
    }
  };
  try {
    await row("pool index, no saved index (every start before persistence)", false, RUNS);
    await row("pool index, first start with persistence: scan and save", true, 1);
    await row("pool index, restart from the saved index", true, RUNS);
    await tester.mine({ blocks: 1_000 });
    await row("pool index, restart after 1,000 more blocks", true, 1);
    await settlementRows();
  } finally {
    await store.close();
  }
  return rows;
}
