import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  maxUint256,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { startRpcProxy } from "../../../test/rpc-proxy.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { erc20Abi } from "../../contracts/abis/ERC20.ts";
import { nonfungiblePositionManagerAbi } from "../../contracts/abis/NonfungiblePositionManager.ts";
import { poolManagerAbi } from "../../contracts/abis/PoolManager.ts";
import { poolModifyLiquidityTestAbi } from "../../contracts/abis/PoolModifyLiquidityTest.ts";
import { officialBytecode } from "../../contracts/official.ts";
import { createStore, type Store } from "../../store/create-store.ts";
import { loadPoolIndex, savePoolIndexSync } from "../../store/repositories/pool-index.ts";
import { v4PoolId } from "../v4/pool-key.ts";
import { v2PairAddress, v3PoolAddress } from "./canonical.ts";
import type { PoolIndexPersistence } from "./persistence.ts";
import { poolRef } from "./pool.ts";
import { createPoolIndex, DISCOVERY_EVENTS, type ScanProgress } from "./pool-index.ts";
import { recoverV4Key } from "./v4-keys.ts";

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const lower = (address: string) => address.toLowerCase();
const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const indexFor = (fromBlock: bigint) =>
  createPoolIndex({
    client: devnet.publicClient,
    contracts: devnet.manifest.contracts,
    fromBlock,
    logRanges: { initial: 200n, max: 200n, attempts: 1, backoffMs: 0 },
  });

async function send(to: Address, data: Hex, value = 0n) {
  const wallet = devnet.wallet(8);
  const hash = await wallet.sendTransaction({
    account: wallet.account!,
    chain: wallet.chain,
    to,
    data,
    value,
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** Creates a V3 pool for an unused (pair, fee) through the official position manager. */
async function createV3Pool(symbolA: string, symbolB: string, fee: number) {
  const [a, b] = [token(symbolA), token(symbolB)];
  const [token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
  await send(
    devnet.manifest.contracts.v3PositionManager,
    encodeFunctionData({
      abi: nonfungiblePositionManagerAbi,
      functionName: "createAndInitializePoolIfNecessary",
      args: [token0, token1, fee, 2n ** 96n],
    }),
  );
  return v3PoolAddress(
    devnet.manifest.contracts.v3Factory,
    devnet.manifest.contracts.v3PoolInitCodeHash,
    a,
    b,
    fee,
  );
}

/**
 * A GEM/OP V4 pool initialized directly on the PoolManager (no PositionManager key: only the exact-id
 * Initialize lookup can recover it).
 */
async function initializeV4Directly(fee: number, tickSpacing: number) {
  const [a, b] = [token("GEM"), token("OP")];
  const key = {
    currency0: BigInt(a) < BigInt(b) ? a : b,
    currency1: BigInt(a) < BigInt(b) ? b : a,
    fee,
    tickSpacing,
    hooks: zeroAddress,
  } as const;
  await send(
    devnet.manifest.contracts.v4PoolManager,
    encodeFunctionData({ abi: poolManagerAbi, functionName: "initialize", args: [key, 2n ** 96n] }),
  );
  return key;
}

/** Activity on a V4 pool: liquidity added through v4-core's test router (a `ModifyLiquidity` event). */
async function addV4Liquidity(key: Awaited<ReturnType<typeof initializeV4Directly>>) {
  const wallet = devnet.wallet(8);
  const routerHash = await wallet.sendTransaction({
    account: wallet.account!,
    chain: wallet.chain,
    data: `${officialBytecode("PoolModifyLiquidityTest").bytecode}${encodeAbiParameters([{ type: "address" }], [devnet.manifest.contracts.v4PoolManager]).slice(2)}`,
  });
  const router = (await devnet.publicClient.waitForTransactionReceipt({ hash: routerHash })).contractAddress!;
  for (const currency of [key.currency0, key.currency1])
    await send(
      currency,
      encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
    );
  await send(
    router,
    encodeFunctionData({
      abi: poolModifyLiquidityTestAbi,
      functionName: "modifyLiquidity",
      args: [
        key,
        { tickLower: -600, tickUpper: 600, liquidityDelta: 10n ** 12n, salt: `0x${"0".repeat(64)}` },
        "0x",
      ],
    }),
  );
}

/** The service's persistence of the index (src/runtime/start-service.ts) on a throwaway database. */
const persistenceIn = (store: Store): PoolIndexPersistence => ({
  load: (sinceVersion) => loadPoolIndex(store.db, sinceVersion),
  save: async (change) => {
    await savePoolIndexSync(store.db, change);
  },
});

describe("pool index", () => {
  it("persists: a new index resumes from the saved block, rolls back what a reorg took, and drops another configuration's", async () => {
    const store = await createStore({ dataDir: null });
    const persistence = persistenceIn(store);
    const persisted = (fromBlock: bigint) =>
      createPoolIndex({
        client: devnet.publicClient,
        contracts: devnet.manifest.contracts,
        fromBlock,
        persistence,
        onPersistError: (error) => {
          throw error;
        },
      });
    const refs = (index: { pools: () => readonly Parameters<typeof poolRef>[0][] }) =>
      index.pools().map(poolRef).sort();
    try {
      const first = persisted(0n);
      const scanned = await first.sync();
      expect(scanned.resumed).toBeUndefined();
      expect(scanned.from).toBe(0n);

      // A restart: nothing rescanned, the same pools, from the saved tip on.
      const second = persisted(0n);
      const resumed = await second.sync();
      expect(resumed.resumed).toEqual({ pools: first.pools().length, block: scanned.to });
      expect(resumed.from).toBe(scanned.to + 1n);
      expect(refs(second)).toEqual(refs(first));
      expect(second.pools().find((p) => p.kind === "v4")?.discovery.block).toEqual(expect.any(BigInt));

      // A pool learned, saved, then taken back by a reorg while no process ran.
      const snapshot = await devnet.testClient.snapshot();
      const created = (await createV3Pool("GEM", "TINY", 10000)).toLowerCase();
      expect((await second.sync()).added).toBe(1);
      expect((await loadPoolIndex(store.db))!.pools.map((p) => p.ref)).toContain(created);
      await devnet.testClient.revert({ id: snapshot });
      await devnet.testClient.mine({ blocks: 3 });
      const third = persisted(0n);
      const afterReorg = await third.sync();
      expect(afterReorg).toMatchObject({ reorg: true, rolledBack: 1 });
      expect(refs(third)).toEqual(refs(first));
      expect((await loadPoolIndex(store.db))!.pools.map((p) => p.ref)).not.toContain(created);

      // Another first block is another configuration: scanned afresh, the saved index rewritten.
      const other = persisted(1n);
      const fresh = await other.sync();
      expect(fresh.resumed).toBeUndefined();
      expect(fresh.from).toBe(1n);
      expect((await persisted(1n).sync()).resumed?.pools).toBe(other.pools().length);
    } finally {
      await store.close();
    }
  });

  it("scans a long chain in saved steps, telling its progress, and resumes from the last step after a failure", async () => {
    const { contracts } = devnet.manifest;
    const tip = await devnet.publicClient.getBlockNumber();
    const step = tip / 4n + 1n;
    const proxy = await startRpcProxy(devnet.rpcUrl);
    const store = await createStore({ dataDir: null });
    const stepped = (told: ScanProgress[]) =>
      createPoolIndex({
        client: createChainClient({ url: proxy.url, kind: "private" }),
        contracts,
        fromBlock: 0n,
        logRanges: { initial: step, max: step, attempts: 1, backoffMs: 0 },
        persistence: persistenceIn(store),
        checkpointBlocks: step,
        onScanned: (scan) => told.push(scan),
      });
    try {
      // The third step's logs are refused: the first two steps stay saved.
      let reads = 0;
      proxy.mode = {
        kind: "refuse",
        refuse: (method) => (method === "eth_getLogs" && ++reads === 3 ? { status: 503 } : undefined),
      };
      const told: ScanProgress[] = [];
      await expect(stepped(told).sync()).rejects.toThrow();
      expect(told.map((scan) => scan.through)).toEqual([step - 1n, 2n * step - 1n]);
      expect(told.every((scan) => scan.from === 0n && scan.to >= tip)).toBe(true);
      const saved = await loadPoolIndex(store.db);
      expect(saved?.tips).toContain(`"${2n * step - 1n}"`);

      // A restart scans only the rest, and ends with every pool a whole scan finds.
      proxy.mode = { kind: "pass" };
      const toldAgain: ScanProgress[] = [];
      const restarted = stepped(toldAgain);
      const resumed = await restarted.sync();
      expect(resumed.resumed?.block).toBe(2n * step - 1n);
      expect(resumed.from).toBe(2n * step);
      expect(toldAgain[0]?.from).toBe(2n * step);
      expect(toldAgain.at(-1)?.through).toBe(resumed.to);
      expect(toldAgain.at(-1)?.pools).toBeGreaterThan(0);
      const whole = indexFor(0n);
      await whole.sync({ number: resumed.to, hash: restarted.syncedTo()!.hash });
      expect(restarted.pools().map(poolRef).sort()).toEqual(whole.pools().map(poolRef).sort());
    } finally {
      await proxy.close();
      await store.close();
    }
  });

  it("reads the indexer's saved index without touching the chain's logs: new pools by version, a reorg's rollback whole", async () => {
    const store = await createStore({ dataDir: null });
    const persistence = persistenceIn(store);
    let readerLogs = 0;
    const readerClient = {
      ...devnet.publicClient,
      getLogs: ((args: never) => {
        readerLogs++;
        return devnet.publicClient.getLogs(args);
      }) as unknown as typeof devnet.publicClient.getLogs,
    };
    const contracts = devnet.manifest.contracts;
    const indexer = createPoolIndex({ client: devnet.publicClient, contracts, fromBlock: 0n, persistence });
    const reader = createPoolIndex({ client: readerClient, contracts, fromBlock: 0n, persistence });
    const refs = (index: { pools: () => readonly Parameters<typeof poolRef>[0][] }) =>
      index.pools().map(poolRef).sort();
    try {
      // Before the indexer saved anything, a reader has nothing to take (and does not scan).
      await store.db.deleteFrom("pool_index_state").execute();
      await store.db.deleteFrom("pool_index_pools").execute();
      expect(await reader.refresh()).toBeUndefined();
      expect(reader.pools()).toEqual([]);
      await indexer.sync();
      const first = await reader.refresh();
      expect(refs(reader)).toEqual(refs(indexer));
      expect(first).toMatchObject({ from: 0n, to: indexer.syncedTo()!.number, readSaved: true });

      const snapshot = await devnet.testClient.snapshot();
      const created = (await createV3Pool("MOON", "TINY", 10000)).toLowerCase();
      expect((await indexer.sync()).added).toBe(1);
      const saved = await loadPoolIndex(store.db);
      // Incremental: the reader loads only the rows the last save wrote.
      expect((await loadPoolIndex(store.db, saved!.version - 1n))!.pools.map((p) => p.ref)).toEqual([
        created,
      ]);
      expect(await reader.refresh()).toMatchObject({ added: 1, rolledBack: 0, reorg: false });
      expect(refs(reader)).toContain(created);
      expect(reader.syncedTo()).toEqual(indexer.syncedTo());

      // The indexer rolls a reorg back; the reader, behind that save, reloads whole and loses the pool.
      await devnet.testClient.revert({ id: snapshot });
      await devnet.testClient.mine({ blocks: 3 });
      expect(await indexer.sync()).toMatchObject({ reorg: true, rolledBack: 1 });
      expect(await reader.refresh()).toMatchObject({ added: 0, rolledBack: 1, reorg: true });
      expect(refs(reader)).toEqual(refs(indexer));
      expect(refs(reader)).not.toContain(created);
      // Nothing new saved: nothing loaded, nothing changed.
      expect(await reader.refresh()).toMatchObject({ added: 0, rolledBack: 0 });
      expect(readerLogs).toBe(0);

      // The reader turned indexer (the lease passed to it) goes on from its tip, scanning only what is new.
      await devnet.testClient.mine({ blocks: 2 });
      const took = await reader.sync();
      expect(took.from).toBe(indexer.syncedTo()!.number + 1n);
      expect(took.resumed).toBeUndefined();
      expect(refs(reader)).toEqual(refs(indexer));
    } finally {
      await store.close();
    }
  });

  it("discovers every seeded pool, verified, with hooked and dynamic-fee V4 pools excluded", async () => {
    const index = indexFor(BigInt(devnet.manifest.deploymentBlock));
    const result = await index.sync();
    expect(result.added).toBe(devnet.manifest.pools.length);
    const refs = new Set(index.pools().map(poolRef));
    for (const pool of devnet.manifest.pools) {
      const ref = pool.kind === "v4" ? pool.poolId.toLowerCase() : pool.address.toLowerCase();
      expect(refs.has(ref), `${pool.kind} ${pool.symbols.join("/")}`).toBe(true);
      const indexed = index.pools().find((p) => poolRef(p) === ref)!;
      if (indexed.kind === "v4") {
        expect(indexed.excluded === undefined).toBe(pool.routable);
        if (pool.kind === "v4" && pool.hook !== "none") {
          expect(indexed.excluded).toBe(pool.hook === "swap-hook" ? "hooks" : "dynamic-fee");
        }
      }
    }
    // Native ETH is its own currency: ETH/USDC and WETH/USDC are different pairs.
    const usdc = token("USDC");
    const weth = devnet.manifest.contracts.weth9;
    const wethUsdc = index.poolsForPair(weth, usdc);
    const ethUsdc = index.poolsForPair(zeroAddress, usdc);
    expect(new Set(wethUsdc.map((p) => p.kind))).toEqual(new Set(["v2", "v3", "v4"]));
    expect(ethUsdc.every((p) => p.kind === "v4")).toBe(true);
    expect(ethUsdc.length).toBeGreaterThanOrEqual(2);
    expect(index.poolsOf(usdc).length).toBeGreaterThan(wethUsdc.length + ethUsdc.length);
  });

  it("derives the same canonical addresses the factories created", () => {
    const { contracts } = devnet.manifest;
    for (const pool of devnet.manifest.pools) {
      if (pool.kind === "v2") {
        expect(
          v2PairAddress(contracts.v2Factory, contracts.v2PairInitCodeHash, pool.token1, pool.token0),
        ).toBe(pool.address);
      } else if (pool.kind === "v3") {
        const derived = v3PoolAddress(
          contracts.v3Factory,
          contracts.v3PoolInitCodeHash,
          pool.token0,
          pool.token1,
          pool.fee,
        );
        expect(derived.toLowerCase()).toBe(pool.address.toLowerCase());
      } else {
        expect(v4PoolId(pool.key)).toBe(pool.poolId.toLowerCase());
      }
    }
  });

  it("follows new blocks incrementally and rolls back pools a reorg removed", async () => {
    const index = indexFor(BigInt(devnet.manifest.deploymentBlock));
    await index.sync();
    const before = index.pools().length;

    const snapshot = await devnet.testClient.snapshot();
    const created = await createV3Pool("GEM", "TINY", 500);
    const grown = await index.sync();
    expect(grown.added).toBe(1);
    expect(
      index.pools().some((p) => p.kind === "v3" && p.address.toLowerCase() === created.toLowerCase()),
    ).toBe(true);

    // Reorg: the block holding the pool's creation is replaced by empty blocks.
    await devnet.testClient.revert({ id: snapshot });
    await devnet.testClient.mine({ blocks: 3 });
    const after = await index.sync();
    expect(after.reorg).toBe(true);
    expect(after.rolledBack).toBe(1);
    expect(index.pools().length).toBe(before);
    expect(
      index.pools().some((p) => p.kind === "v3" && p.address.toLowerCase() === created.toLowerCase()),
    ).toBe(false);
  });

  it("advances over the head follower's blocks from their logs, with no log read of its own; a gap syncs", async () => {
    const proxy = await startRpcProxy(devnet.rpcUrl);
    try {
      const client = createChainClient({ url: proxy.url, kind: "private" });
      const index = createPoolIndex({
        client,
        contracts: devnet.manifest.contracts,
        fromBlock: BigInt(devnet.manifest.deploymentBlock),
      });
      await index.sync();
      const headBlock = async (number: bigint) => {
        // What the head follower hands it: the block, and its logs read by hash with every event it asks for.
        const block = await devnet.publicClient.getBlock({ blockNumber: number });
        const logs = await devnet.publicClient.getLogs({
          events: DISCOVERY_EVENTS,
          blockHash: block.hash,
          strict: true,
        });
        return { number, hash: block.hash, parentHash: block.parentHash, logs };
      };
      const created = await createV3Pool("GEM", "TINY", 10000);
      const head = await devnet.publicClient.getBlockNumber();
      const from = index.syncedTo()!.number + 1n;
      const blocks = [];
      for (let n = from; n <= head; n++) blocks.push(await headBlock(n));
      proxy.calls.length = 0;
      const advanced = await index.advance(blocks);
      expect(advanced).toMatchObject({ from, to: head, added: 1, reorg: false });
      expect(index.pools().some((p) => p.kind === "v3" && lower(p.address) === lower(created))).toBe(true);
      expect(index.syncedTo()).toEqual({ number: head, hash: blocks.at(-1)!.hash });
      expect(proxy.calls).toEqual([]);

      // Blocks that do not extend its tip (one was skipped): it syncs to the last of them, reading for itself.
      await devnet.testClient.mine({ blocks: 2 });
      const gap = [await headBlock(head + 2n)];
      const synced = await index.advance(gap);
      expect(synced).toMatchObject({ to: head + 2n, added: 0 });
      expect(proxy.calls).toContain("eth_getLogs");
      expect(index.syncedTo()?.number).toBe(head + 2n);
    } finally {
      await proxy.close();
    }
  });

  it("finds V4 pools initialized before its first block through their activity (rule 10)", async () => {
    const { contracts } = devnet.manifest;
    const client = devnet.publicClient;
    // A pool initialized directly on the PoolManager, then funded after `fromBlock`.
    const key = await initializeV4Directly(3000, 60);
    const poolId = v4PoolId(key);
    const fromBlock = (await client.getBlockNumber()) + 1n;
    await addV4Liquidity(key);

    const index = indexFor(fromBlock);
    await index.sync();
    const recovered = index.pools().find((p) => p.kind === "v4" && p.poolId === poolId.toLowerCase());
    expect(recovered).toMatchObject({ kind: "v4", key, discovery: { via: "activity" } });
    expect(index.pools().every((p) => p.kind === "v4")).toBe(true);

    const direct = await recoverV4Key(client, contracts, poolId, await client.getBlockNumber());
    expect(direct.status).toBe("recovered");
    const unknownId = v4PoolId({ ...key, fee: 4242 });
    expect((await recoverV4Key(client, contracts, unknownId, await client.getBlockNumber())).status).toBe(
      "not-found",
    );
  });

  it("adds nothing from a sync a failed read stopped part way, so the next sync adds and saves it all", async () => {
    const { contracts } = devnet.manifest;
    // Before the range: a V4 pool initialized directly on the PoolManager.
    const key = await initializeV4Directly(500, 10);
    const fromBlock = (await devnet.publicClient.getBlockNumber()) + 1n;
    // In range: a V3 pool's creation event, then activity on that V4 pool, whose key the sync resolves
    // last (a PositionManager read, an eth_call).
    const created = (await createV3Pool("MOON", "GEM", 500)).toLowerCase();
    await addV4Liquidity(key);

    const proxy = await startRpcProxy(devnet.rpcUrl);
    const store = await createStore({ dataDir: null });
    try {
      const index = createPoolIndex({
        client: createChainClient({ url: proxy.url, kind: "private" }),
        contracts,
        fromBlock,
        logRanges: { initial: 200n, max: 200n, attempts: 1, backoffMs: 0 },
        persistence: persistenceIn(store),
      });
      proxy.mode = {
        kind: "refuse",
        refuse: (method) => (method === "eth_call" ? { status: 503 } : undefined),
      };
      await expect(index.sync()).rejects.toThrow();
      expect(index.pools()).toEqual([]);
      proxy.mode = { kind: "pass" };
      await index.sync();
      const refs = index.pools().map(poolRef);
      expect(refs).toContain(created);
      expect(refs).toContain(v4PoolId(key).toLowerCase());
      const saved = (await loadPoolIndex(store.db))!.pools.map((p) => p.ref);
      expect(saved.sort()).toEqual(refs.sort());
    } finally {
      await proxy.close();
      await store.close();
    }
  });
});
