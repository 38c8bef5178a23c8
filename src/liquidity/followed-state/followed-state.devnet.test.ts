import { type Address, encodeFunctionData, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../test/devnet.ts";
import { createPoolActivity, reorgPairs, type Tx } from "../../../test/pool-activity.ts";
import { createChainClient } from "../../chain/create-chain-client.ts";
import { countRpc } from "../../chain/rpc-tally.ts";
import { builderRegistryArtifact } from "../../contracts/artifacts/BuilderRegistry.ts";
import { REGISTRY_EVENTS } from "../../contracts/registry-events.ts";
import { DEVNET_FEE_SCHEDULE } from "../../devnet/deploy-junction.ts";
import { createRandom } from "../../devnet/random.ts";
import { createQuoter } from "../../quote/create-quoter.ts";
import { createFixtures } from "../../simulation/fixtures.ts";
import { type IndexedPool, isRoutable } from "../pool-index/pool.ts";
import { createPoolIndex, type PoolIndex } from "../pool-index/pool-index.ts";
import { loadPoolStates } from "../read/load-pool-states.ts";
import {
  createFollowedState,
  type FollowedSource,
  type FollowedState,
  type StepOutcome,
} from "./follow-state.ts";
import { snapshotDifference } from "./same-snapshot.ts";

/**
 * The differential test of followed pool state (docs/rules.md, comparison rule 14): thousands of random swaps, mints, burns and liquidity changes across
 * the devnet's V2, V3 and V4 pools, many per block (automine off), through reorgs (`anvil_reorg` with
 * transactions of their own), a short gap the follower walks back over and a long one it reads anew
 * after; at every checkpoint each followed pool equals a direct read at the same block wei for wei, no
 * sample ever mismatched, and quotes from the followed state equal quotes from reads.
 */
const SEED = 0x4663_0031;
const BLOCKS = 48;
const TXS_PER_BLOCK = 48;

let devnet: TestDevnet;
let client: PublicClient;
let index: PoolIndex;
let pools: IndexedPool[];
let followed: FollowedState;
const mismatches: string[] = [];
beforeAll(async () => {
  devnet = await startTestDevnet();
  client = devnet.publicClient as PublicClient;
  const { contracts } = devnet.manifest;
  index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  const standard = new Set(
    devnet.manifest.tokens.filter((t) => t.kind === "standard").map((t) => t.address.toLowerCase()),
  );
  const plain = (token: Address) => BigInt(token) === 0n || standard.has(token.toLowerCase());
  pools = index.pools().filter((pool) => isRoutable(pool) && plain(pool.token0) && plain(pool.token1));
  followed = createFollowedState({
    client,
    pools: () => index.pools(),
    ...(contracts.v4PoolManager ? { poolManager: contracts.v4PoolManager } : {}),
    watch: { addresses: [contracts.builderRegistry], events: REGISTRY_EVENTS },
    staleAfterMs: 600_000,
    maxCatchUp: 4,
    onMismatch: (pool, field) => mismatches.push(`${pool.kind} ${field}`),
  });
});
afterAll(() => devnet?.dispose());

const rpc = (method: string, params: unknown[] = []) =>
  (client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });

/** Every followed pool against a direct read at the follower's block; returns how many were compared. */
async function compareAll(): Promise<number> {
  // The chain may have moved since the last step (a funding block): catch up first.
  if ((await client.getBlock()).hash !== followed.head()?.hash) await followed.step();
  const head = followed.head()!;
  expect((await client.getBlock()).hash).toBe(head.hash);
  const { pools: loads } = await loadPoolStates(client, pools, {
    blockNumber: head.number,
    v4PoolManager: devnet.manifest.contracts.v4PoolManager,
  });
  let compared = 0;
  loads.forEach((load, i) => {
    const snapshot = followed.snapshotAt(pools[i]!, head);
    if (!snapshot) return;
    if (load.status !== "loaded") throw new Error(`pool ${i} did not load: ${load.reason}`);
    expect(snapshotDifference(snapshot, load.snapshot), `${pools[i]!.kind} pool ${i}`).toBeUndefined();
    compared++;
  });
  return compared;
}

/** A quoter over `source` whose node requests are counted (`countRpc`), as the service's are. */
function countedQuoter(source: FollowedSource) {
  const counted = createChainClient({ url: devnet.rpcUrl, kind: "private" });
  const { contracts } = devnet.manifest;
  return createQuoter({
    client: counted,
    index,
    contracts,
    fixtures: createFixtures(counted),
    followed: source,
  });
}

describe("followed pool state", () => {
  it("equals direct reads wei for wei through random activity, reorgs and gaps", {
    timeout: 180_000,
  }, async () => {
    const { contracts } = devnet.manifest;
    const deployer = devnet.manifest.accounts[0]!.address as Address;
    const random = createRandom(SEED);
    const activity = createPoolActivity(client, deployer, random);
    const tokens = devnet.manifest.tokens
      .filter((t) => t.kind === "standard" && t.address.toLowerCase() !== contracts.weth9.toLowerCase())
      .map((t) => t.address);
    await activity.deploy(contracts.v4PoolManager!, contracts.weth9, tokens);
    expect((await followed.step()).kind).toBe("reread");
    expect(await compareAll()).toBe(pools.length);

    await rpc("evm_setAutomine", [false]);
    const kinds = new Map<StepOutcome["kind"], number>();
    let sent = 0;
    let events = 0;
    const draw = (): Omit<Tx, "from"> => {
      for (;;) {
        const pool = pools[random.int(0, pools.length - 1)]!;
        const state = followed.snapshotAt(pool, followed.head()!);
        if (state) return activity.action(pool, state);
      }
    };
    for (let block = 0; block < BLOCKS; block++) {
      if (block % 12 === 7) {
        // A reorg two or three blocks deep, its new blocks carrying transactions of their own.
        const depth = 2 + (block % 2);
        const txs = Array.from({ length: 12 }, () => ({ from: deployer, ...draw() }));
        await rpc("anvil_reorg", [depth, reorgPairs(txs, depth)]);
        await activity.syncNonce();
        sent += txs.length;
      } else {
        for (let i = 0; i < TXS_PER_BLOCK; i++) await activity.send(draw());
        sent += TXS_PER_BLOCK;
        await rpc("evm_mine");
      }
      // The follower misses some blocks: a short gap (walked back over), a long one (everything read anew).
      if ([20, 21, 30, 31, 32, 33, 34, 35].includes(block)) continue;
      const outcome = await followed.step();
      kinds.set(outcome.kind, (kinds.get(outcome.kind) ?? 0) + 1);
      events += outcome.events;
      if (block % 8 === 0) expect(await compareAll()).toBe(pools.length);
    }
    await followed.step();
    expect(await compareAll()).toBe(pools.length);

    // A swap through every tick of a V3 pool's liquidity takes its price far past the held words: the step
    // that applies it reads the pool anew around the new price, so a quote at that block finds it followed
    // instead of reading it itself (a round trip of its own).
    const v3 = pools.find(
      (pool): pool is IndexedPool & { kind: "v3" } =>
        pool.kind === "v3" && BigInt(pool.token0) !== 0n && !!followed.snapshotAt(pool, followed.head()!),
    )!;
    const before = followed.snapshotAt(v3, followed.head()!)!;
    const hash = await activity.send({ ...activity.v3Swap(v3, true, 10n ** 28n), gas: 30_000_000n });
    await rpc("evm_mine");
    expect((await client.getTransactionReceipt({ hash })).status).toBe("success");
    expect((await followed.step()).kind).toBe("applied");
    const after = followed.snapshotAt(v3, followed.head()!);
    expect(after, "followed at the block that moved it").toBeDefined();
    expect(before.kind === "v3" && after?.kind === "v3" && before.tick - after.tick).toBeGreaterThan(100_000);
    expect(await compareAll()).toBe(pools.length);
    expect(sent).toBeGreaterThan(2000);
    expect(events).toBeGreaterThan(1500);
    expect(kinds.get("applied")).toBeGreaterThan(20);
    expect(kinds.get("rewound")).toBeGreaterThan(0);
    expect(kinds.get("reread")).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  it("gives quotes equal to quotes from direct reads, without pinning or reading pools", async () => {
    const { contracts } = devnet.manifest;
    // A counted client for the quotes (the follower reads on its own).
    const counted = createChainClient({ url: devnet.rpcUrl, kind: "private" });
    const fixtures = createFixtures(counted);
    const withFollowed = createQuoter({ client: counted, index, contracts, fixtures, followed });
    // Reads for itself (no quote block, no held pool), choosing the same pools: the followed state's depths.
    const depthsOnly = {
      quoteBlock: () => undefined,
      snapshotAt: () => undefined,
      unchangedSince: () => undefined,
      depthOf: followed.depthOf,
    };
    const withReads = createQuoter({ client: counted, index, contracts, fixtures, followed: depthsOnly });
    await followed.step();
    expect(followed.quoteBlock()?.block.hash).toBe(followed.head()!.hash);
    const symbol = (s: string) => devnet.manifest.tokens.find((t) => t.symbol === s)!.address;
    const cases: [Address, Address, bigint][] = [
      [contracts.weth9, symbol("USDC"), 10n ** 18n],
      [symbol("USDC"), symbol("DAI"), 5_000n * 10n ** 6n],
      [symbol("WBTC"), symbol("USDT"), 10n ** 7n],
      [contracts.weth9, symbol("LINK"), 3n * 10n ** 18n],
      // Large enough to run past the first window: widened pools.
      [contracts.weth9, symbol("USDC"), 3_000n * 10n ** 18n],
    ];
    let widened = 0;
    for (const [tokenIn, tokenOut, amountIn] of cases) {
      const request = { tokenIn, tokenOut, amountIn };
      // Each quoter once first: what a first quote learns (a token's balance slot, where pools' ticks are)
      // is not counted against either.
      await withReads(request, new AbortController().signal);
      await withFollowed(request, new AbortController().signal);
      const fromReads = await withReads(request, new AbortController().signal);
      const fromState = await withFollowed(request, new AbortController().signal);
      expect(fromState.block.hash).toBe(fromReads.block.hash);
      expect(fromState.gasPrice).toBe(fromReads.gasPrice);
      expect(fromState.selected.amountOut).toBe(fromReads.selected.amountOut);
      expect(fromState.comparison.map((c) => [c.id, c.amountOut, c.simulation.status])).toEqual(
        fromReads.comparison.map((c) => [c.id, c.amountOut, c.simulation.status]),
      );
      expect(fromState.search).toEqual(fromReads.search);
      widened += fromState.search.widenedPools;
      // No pin, no state and no widening round trip: the simulations' alone (pools a large trade needs
      // read wider are held that wide).
      expect(fromState.rpc.roundTrips).toBe(1);
      expect(fromReads.rpc.roundTrips).toBe(fromReads.search.widenedPools > 0 ? 4 : 3);
    }
    expect(widened).toBeGreaterThan(0);
  });

  it("warms the search up over real trades on the followed state with no node request", async () => {
    const quote = countedQuoter(followed);
    await followed.step();
    const { value: searches, rpc } = await countRpc(() => quote.warmSearch({ searches: 12 }));
    expect(searches).toBe(12);
    expect(rpc).toEqual({ calls: 0, requests: 0, roundTrips: 0, openedBy: [] });
    let asked = 0;
    expect(await quote.warmSearch({ stopped: () => ++asked > 3 })).toBe(3);
    // Without followed state there is nothing to search on, and nothing is read instead.
    const cold = countedQuoter({ ...followed, quoteBlock: () => undefined, newestBlock: () => undefined });
    expect(await countRpc(() => cold.warmSearch())).toEqual({
      value: 0,
      rpc: { calls: 0, requests: 0, roundTrips: 0, openedBy: [] },
    });
  });

  it("quotes a warm pair in a new block with one round trip, and sees a registry change at once", async () => {
    const { contracts } = devnet.manifest;
    const counted = createChainClient({ url: devnet.rpcUrl, kind: "private" });
    const quote = createQuoter({
      client: counted,
      index,
      contracts,
      fixtures: createFixtures(counted),
      followed,
    });
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const request = { tokenIn: contracts.weth9, tokenOut: usdc, amountIn: 10n ** 17n };
    const signal = new AbortController().signal;
    await followed.step();
    const first = await quote(request, signal);

    // A block in which the registry logged nothing: its fee terms and the tokens' code are known, the
    // pools followed, so the simulations are the quote's one round trip (one HTTP request).
    await devnet.testClient.mine({ blocks: 1 });
    await followed.step();
    const next = await quote(request, signal);
    expect(next.block.number).toBeGreaterThan(first.block.number);
    expect(followed.unchangedSince(next.block)).toBe(followed.unchangedSince(first.block));
    expect(next.fees).toEqual(first.fees);
    expect([next.rpc.roundTrips, next.rpc.requests]).toEqual([1, 1]);

    // Governance sets the pair's fee: the block it lands in starts a new state of the registry, and the
    // next quote reads the new terms there.
    const bps = first.fees.serviceFeeBps === 20 ? 30 : 20;
    const governance = devnet.wallet(1);
    const hash = await governance.sendTransaction({
      to: contracts.builderRegistry,
      data: encodeFunctionData({
        abi: builderRegistryArtifact.abi,
        functionName: "setPairRouteFee",
        args: [contracts.weth9, usdc, bps],
      }),
      chain: null,
      account: governance.account!,
    });
    await devnet.testClient.mine({ blocks: 1 });
    const receipt = await client.waitForTransactionReceipt({ hash });
    await followed.step();
    const changed = await quote(request, signal);
    expect(followed.unchangedSince(changed.block)).toBe(receipt.blockHash);
    expect(changed.fees.serviceFeeBps).toBe(bps);
    expect(changed.rpc.roundTrips).toBe(2);
  });

  it("quotes a pair's first time at a registry state in one round trip, on fee terms warmed at start or another pair's", async () => {
    const { contracts, tokens } = devnet.manifest;
    const counted = createChainClient({ url: devnet.rpcUrl, kind: "private" });
    const token = (symbol: string) => tokens.find((t) => t.symbol === symbol)!.address;
    const fixtures = createFixtures(counted);
    await devnet.testClient.mine({ blocks: 1 });
    await followed.step();
    // The input tokens' balance and allowance slots are known, as the service learns them in the background.
    for (const input of [contracts.weth9, token("USDC")])
      await fixtures.learn(input, contracts.executor, followed.head()!.number);
    const quote = createQuoter({ client: counted, index, contracts, fixtures, followed });
    const signal = new AbortController().signal;
    const ask = (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
      quote({ tokenIn, tokenOut, amountIn }, signal);

    // The process's first quote: built on the fee terms the service warmed at start, its own read with the
    // simulations (without them, they would be read before the search and the simulations after).
    await quote.warm();
    const first = await ask(contracts.weth9, token("LINK"), 10n ** 17n);
    expect(first.fees.serviceFeeBps).toBe(DEVNET_FEE_SCHEDULE.defaultRouteFeeBps);
    expect([first.rpc.roundTrips, first.rpc.requests]).toEqual([1, 1]);
    // Another pair: built on LINK's terms, its own read with the simulations and the tokens' code.
    const second = await ask(contracts.weth9, token("UNI"), 10n ** 17n);
    expect(second.block.hash).toBe(first.block.hash);
    expect(second.fees).toEqual(first.fees);
    expect([second.rpc.roundTrips, second.rpc.requests]).toEqual([1, 1]);
    // A pair with its own fee: the guess was wrong, so the quote starts again and is priced with its own.
    const own = await ask(token("USDC"), token("USDT"), 1_000n * 10n ** 6n);
    expect(own.fees.serviceFeeBps).toBe(5);
    expect(own.rpc.roundTrips).toBe(2);
    const again = await ask(token("USDC"), token("USDT"), 1_000n * 10n ** 6n);
    expect(again.fees.serviceFeeBps).toBe(5);
    expect(again.selected).toEqual(own.selected);
    expect(again.rpc.roundTrips).toBe(1);
    // A token without code still fails as such, whatever the guess.
    await expect(ask(contracts.weth9, `0x${"42".repeat(20)}`, 10n ** 17n)).rejects.toMatchObject({
      code: "UNKNOWN_TOKEN",
    });
  });

  it("quotes a warm pair in one round trip after an unrelated registry change, and a pair whose fee changed at its new fee", async () => {
    const { contracts, tokens } = devnet.manifest;
    const counted = createChainClient({ url: devnet.rpcUrl, kind: "private" });
    const token = (symbol: string) => tokens.find((t) => t.symbol === symbol)!.address;
    const fixtures = createFixtures(counted);
    await fixtures.learn(contracts.weth9, contracts.executor, followed.head()!.number);
    const quote = createQuoter({ client: counted, index, contracts, fixtures, followed });
    const signal = new AbortController().signal;
    const ask = (tokenOut: Address) =>
      quote({ tokenIn: contracts.weth9, tokenOut, amountIn: 10n ** 17n }, signal);
    /** Sends a registry transaction from account `from`, mines it and steps: a new registry state. */
    const changeRegistry = async (from: number, data: `0x${string}`) => {
      const wallet = devnet.wallet(from);
      const hash = await wallet.sendTransaction({
        to: contracts.builderRegistry,
        data,
        chain: null,
        account: wallet.account!,
      });
      await devnet.testClient.mine({ blocks: 1 });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      await followed.step();
      expect(followed.unchangedSince(followed.head()!)).toBe(receipt.blockHash);
    };
    await devnet.testClient.mine({ blocks: 1 });
    await followed.step();
    const link = await ask(token("LINK"));
    const uni = await ask(token("UNI"));

    // A builder registers: the registry's state changes, not the terms of a quote without a builder. The
    // warm pairs' first quotes at the new state build on their terms at the state before, in one round trip.
    await changeRegistry(
      3,
      encodeFunctionData({
        abi: builderRegistryArtifact.abi,
        functionName: "register",
        args: ["first-quote-test", devnet.wallet(3).account!.address, 10],
      }),
    );
    const linkAfter = await ask(token("LINK"));
    expect(linkAfter.block.number).toBeGreaterThan(link.block.number);
    expect(linkAfter.fees).toEqual(link.fees);
    expect([linkAfter.rpc.roundTrips, linkAfter.rpc.requests]).toEqual([1, 1]);
    const uniAfter = await ask(token("UNI"));
    expect(uniAfter.fees).toEqual(uni.fees);
    expect(uniAfter.rpc.roundTrips).toBe(1);

    // Governance sets UNI's pair fee: guessed on its terms before, its quote is priced with the new fee.
    const bps = uni.fees.serviceFeeBps === 20 ? 25 : 20;
    await changeRegistry(
      1,
      encodeFunctionData({
        abi: builderRegistryArtifact.abi,
        functionName: "setPairRouteFee",
        args: [contracts.weth9, token("UNI"), bps],
      }),
    );
    const changed = await ask(token("UNI"));
    expect(changed.fees.serviceFeeBps).toBe(bps);
    expect(changed.fees.policyVersion).toBe(uni.fees.policyVersion + 1);
    expect(changed.rpc.roundTrips).toBe(2);
    // The change moved the policy version of every pair: LINK's quote is priced on it.
    const linkChanged = await ask(token("LINK"));
    expect(linkChanged.fees).toEqual({ ...link.fees, policyVersion: changed.fees.policyVersion });
  });
});
