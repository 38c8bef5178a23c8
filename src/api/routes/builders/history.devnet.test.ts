import {
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  toBytes,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { executorKit } from "../../../../test/executor-kit.ts";
import { builderIdOf } from "../../../builders/builder-code.ts";
import { createSettlementIndex } from "../../../builders/settlement-index.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";
import { settlementCollectorArtifact } from "../../../contracts/artifacts/SettlementCollector.ts";
import { buildExecutorSwap, type ExecutorSwap } from "../../../routing/executor-calldata.ts";
import { createApp } from "../../create-app.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { registerHistoryRoute } from "./history.ts";

/**
 * `GET /api/v2/builders/history` on a devnet: real executor swaps attributed to the demo builder and to an
 * unregistered code (several in one block, interleaved), read back page by page with small page limits and
 * compared with the `Settled` events of the swap receipts; then the cursor's guarantees, a suspended builder,
 * a reorg below the pinned finalized block, and the gate.
 */
let devnet: TestDevnet;
let api: BuilderTestApi;
let kit: ReturnType<typeof executorKit>;
let key: string;

const DEMO = "junction-demo";
const OTHER = "history-other";
const TRADER = 3;
const GOVERNANCE = 1;
const PATH = "/api/v2/builders/history";

type Body = Record<string, unknown> & {
  settlements: Record<string, unknown>[];
  totalsByToken: Record<string, unknown>[];
  nextCursor: string | null;
};

/** The app with only the history route, at the given page limits, on the test deps with `overrides`. */
function historyApp(limits?: { blocks: number; events: number }, overrides: Partial<BuilderApiDeps> = {}) {
  const app = createApp((error) => {
    throw error;
  });
  registerHistoryRoute(app, { ...api.deps, ...overrides }, limits ? { limits } : {});
  return (query: Record<string, string>, apiKey = key) =>
    app.request(`${PATH}?${new URLSearchParams(query)}`, { headers: { "x-api-key": apiKey } });
}

async function allPages(get: ReturnType<typeof historyApp>, code: string) {
  const pages: Body[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(cursor ? { code, cursor } : { code });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
    const body = (await response.json()) as Body;
    pages.push(body);
    cursor = body.nextCursor;
  } while (cursor !== null && pages.length < 500);
  return pages;
}

/** The settlement entries the route must return for these receipts' `Settled` events of `code`. */
function expectedEntries(receipts: TransactionReceipt[], code: string) {
  return receipts
    .flatMap((receipt) =>
      parseEventLogs({ abi: settlementCollectorArtifact.abi, logs: receipt.logs, eventName: "Settled" }),
    )
    .filter((log) => log.args.builderId === builderIdOf(code))
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : Number(a.blockNumber - b.blockNumber),
    )
    .map((log) => ({
      quoteId: log.args.quoteId,
      builderCode: code,
      builderId: log.args.builderId,
      keyIdHash: log.args.keyIdHash,
      payer: log.args.payer,
      recipient: log.args.recipient,
      tokenIn: log.args.tokenIn,
      amountIn: log.args.amountIn.toString(),
      tokenOut: log.args.tokenOut,
      grossAmountOut: log.args.grossAmountOut.toString(),
      routeFee: log.args.routeFee.toString(),
      builderFee: log.args.builderFee.toString(),
      amountOut: log.args.amountOut.toString(),
      builderRecipient: log.args.builderRecipient,
      policyVersion: log.args.policyVersion.toString(),
      hash: log.transactionHash,
      blockNumber: log.blockNumber.toString(),
      blockHash: log.blockHash,
      logIndex: log.logIndex,
      status: "finalized",
    }));
}

/** Per-token sums of settlement entries, as the route reports them. */
function sums(entries: Record<string, unknown>[]) {
  const byToken = new Map<
    string,
    { gross: bigint; route: bigint; builder: bigint; out: bigint; count: number }
  >();
  for (const e of entries) {
    const t = byToken.get(e.tokenOut as string) ?? { gross: 0n, route: 0n, builder: 0n, out: 0n, count: 0 };
    t.gross += BigInt(e.grossAmountOut as string);
    t.route += BigInt(e.routeFee as string);
    t.builder += BigInt(e.builderFee as string);
    t.out += BigInt(e.amountOut as string);
    t.count += 1;
    byToken.set(e.tokenOut as string, t);
  }
  return byToken;
}

const receipts: TransactionReceipt[] = [];

/** The deps' client, counting its eth_getLogs calls. */
function countingClient() {
  const counter = { getLogs: 0 };
  const client = new Proxy(api.deps.client, {
    get: (target, property, receiver) =>
      property === "getLogs"
        ? (...args: unknown[]) => {
            counter.getLogs++;
            return (target.getLogs as (...a: unknown[]) => unknown)(...args);
          }
        : Reflect.get(target, property, receiver),
  });
  return { client, counter };
}

/** Sends the swaps from `TRADER` into one block (automine off), then mines it. */
async function swapInOneBlock(terms: ExecutorSwap[]) {
  const wallet = devnet.wallet(TRADER);
  const account = wallet.account!;
  const nonce = await devnet.publicClient.getTransactionCount({
    address: account.address,
    blockTag: "pending",
  });
  await devnet.testClient.setAutomine(false);
  try {
    const hashes: Hex[] = [];
    for (const [i, t] of terms.entries()) {
      const tx = buildExecutorSwap(t);
      hashes.push(
        await wallet.sendTransaction({
          account,
          chain: wallet.chain,
          ...tx,
          gas: 2_000_000n,
          nonce: nonce + i,
        }),
      );
    }
    await devnet.testClient.mine({ blocks: 1 });
    const mined = await Promise.all(
      hashes.map((hash) => devnet.publicClient.waitForTransactionReceipt({ hash })),
    );
    for (const receipt of mined) expect(receipt.status).toBe("success");
    expect(new Set(mined.map((r) => r.blockNumber)).size).toBe(1);
    receipts.push(...mined);
  } finally {
    await devnet.testClient.setAutomine(true);
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
  kit = executorKit(devnet);
  const workspace = await api.workspace({ code: DEMO, plan: "growth" });
  key = await api.key(workspace.id, ["receipts"]);

  const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
  await kit.approveExecutor(TRADER, usdc);
  const recipient = devnet.manifest.accounts[8]!.address;
  const ethToUsdc = (code: string, amountIn: bigint) =>
    kit.terms({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn,
      recipient,
      deadline: 2n ** 40n,
      builderId: builderIdOf(code),
      quoteId: keccak256(toBytes(`history-${code}-${amountIn}`)),
      keyIdHash: keccak256(toBytes(`key-${code}`)),
      route: {
        branches: [{ amountIn, hops: [{ kind: "v4", currencyOut: usdc, fee: 3000, tickSpacing: 60 }] }],
      },
    });
  const usdcToWeth = (code: string, amountIn: bigint) =>
    kit.terms({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      recipient,
      deadline: 2n ** 40n,
      builderId: builderIdOf(code),
      quoteId: keccak256(toBytes(`history-${code}-${amountIn}`)),
      route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: weth }] }] },
    });

  await swapInOneBlock([ethToUsdc(DEMO, 10n ** 17n)]);
  await devnet.testClient.mine({ blocks: 4 });
  // Three demo settlements and one of another code in one block: the event cap must cut inside it.
  await swapInOneBlock([
    usdcToWeth(DEMO, 100n * 10n ** 6n),
    ethToUsdc(OTHER, 2n * 10n ** 17n),
    ethToUsdc(DEMO, 3n * 10n ** 17n),
    usdcToWeth(DEMO, 400n * 10n ** 6n),
  ]);
  await devnet.testClient.mine({ blocks: 7 });
  await swapInOneBlock([usdcToWeth(DEMO, 500n * 10n ** 6n), ethToUsdc(OTHER, 6n * 10n ** 17n)]);
  // Finalized is latest - 2 on the devnet.
  await devnet.testClient.mine({ blocks: 3 });
}, 300_000);
afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

describe("GET /api/v2/builders/history", () => {
  it("returns every finalized settlement once, in chain order, with its event's fields, at any page limits", async () => {
    const expected = expectedEntries(receipts, DEMO);
    expect(expected).toHaveLength(5);
    const finalized = await devnet.publicClient.getBlock({ blockTag: "finalized" });
    for (const limits of [
      { blocks: 1_000, events: 1_000 },
      { blocks: 9, events: 2 },
      { blocks: 40, events: 1 },
    ]) {
      const pages = await allPages(historyApp(limits), DEMO);
      expect(pages.flatMap((p) => p.settlements)).toEqual(expected);
      expect(pages[0]!.scannedFrom).toBe(devnet.manifest.deploymentBlock);
      for (const page of pages) {
        expect(page).toMatchObject({
          code: DEMO,
          builderId: builderIdOf(DEMO),
          finalizedThrough: finalized.number.toString(),
          snapshotHash: finalized.hash,
          totalsScope: "page",
        });
        expect(page.settlements.length).toBeLessThanOrEqual(limits.events);
        const [from, through] = [BigInt(page.scannedFrom as string), BigInt(page.scannedThrough as string)];
        expect(through - from + 1n).toBeLessThanOrEqual(BigInt(limits.blocks));
        expect(through).toBeLessThanOrEqual(finalized.number);
        for (const s of page.settlements) {
          expect(BigInt(s.blockNumber as string)).toBeGreaterThanOrEqual(from);
          expect(BigInt(s.blockNumber as string)).toBeLessThanOrEqual(through);
        }
        if (page.nextCursor !== null) expect(page.nextCursor.length).toBeLessThanOrEqual(1_500);
        // Totals: this page only, per output token.
        const pageSums = sums(page.settlements);
        expect(page.totalsByToken).toHaveLength(pageSums.size);
        for (const t of page.totalsByToken) {
          const s = pageSums.get(t.tokenOut as string)!;
          expect(t).toEqual({
            tokenOut: t.tokenOut,
            grossAmountOut: s.gross.toString(),
            routeFee: s.route.toString(),
            builderFee: s.builder.toString(),
            amountOut: s.out.toString(),
            count: s.count,
          });
        }
      }
      expect(pages.at(-1)!.nextCursor).toBeNull();
      expect(pages.at(-1)!.scannedThrough).toBe(finalized.number.toString());
      if (limits.events === 2) {
        // The crowded block was cut by the event cap and resumed inside the same block.
        const crowded = BigInt(expected[1]!.blockNumber);
        const touching = pages.filter((p) =>
          p.settlements.some((s) => BigInt(s.blockNumber as string) === crowded),
        );
        expect(touching.length).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("reads the settlement index for the range it covers: the same pages, no eth_getLogs there", async () => {
    const index = createSettlementIndex({
      client: devnet.publicClient,
      db: api.deps.db,
      collector: devnet.manifest.contracts.settlementCollector,
      deploymentBlock: BigInt(devnet.manifest.deploymentBlock),
    });
    const { client: counting, counter } = countingClient();
    const withIndex = (limits: { blocks: number; events: number }) =>
      historyApp(limits, { client: counting, settlementIndex: index });
    for (const limits of [
      { blocks: 1_000, events: 1_000 },
      { blocks: 9, events: 2 },
    ]) {
      const plain = await allPages(historyApp(limits), DEMO);
      // Not synced yet: every page reads the chain, and says the same.
      counter.getLogs = 0;
      expect(await allPages(withIndex(limits), DEMO)).toEqual(plain);
      expect(counter.getLogs).toBeGreaterThan(0);
    }
    const synced = await index.sync();
    expect(synced.events).toBe(
      expectedEntries(receipts, DEMO).length + expectedEntries(receipts, OTHER).length,
    );
    for (const limits of [
      { blocks: 1_000, events: 1_000 },
      { blocks: 9, events: 2 },
    ]) {
      const plain = await allPages(historyApp(limits), DEMO);
      counter.getLogs = 0;
      expect(await allPages(withIndex(limits), DEMO)).toEqual(plain);
      expect(counter.getLogs).toBe(0);
    }
    // A block finalized since the index synced is read from the chain; a rerun of sync indexes it.
    await devnet.testClient.mine({ blocks: 2 });
    const plain = await allPages(historyApp({ blocks: 1_000, events: 1_000 }), DEMO);
    counter.getLogs = 0;
    expect(await allPages(withIndex({ blocks: 1_000, events: 1_000 }), DEMO)).toEqual(plain);
    expect(counter.getLogs).toBe(1);
    expect((await index.sync()).events).toBe(0);
  });

  it("sums the whole history per token to what the receipts say", async () => {
    const pages = await allPages(historyApp({ blocks: 9, events: 2 }), DEMO);
    const total = new Map<string, bigint>();
    for (const page of pages)
      for (const t of page.totalsByToken)
        total.set(
          t.tokenOut as string,
          (total.get(t.tokenOut as string) ?? 0n) + BigInt(t.grossAmountOut as string),
        );
    const fromReceipts = sums(expectedEntries(receipts, DEMO));
    expect(Object.fromEntries(total)).toEqual(
      Object.fromEntries([...fromReceipts].map(([token, s]) => [token, s.gross])),
    );
    expect([...total.keys()].sort()).toEqual([kit.token("USDC"), kit.token("WETH")].sort());
  });

  it("defaults to the key's workspace code and keeps each code's settlements apart", async () => {
    const byDefault = (await (await historyApp()({})).json()) as Body;
    expect(byDefault.code).toBe(DEMO);
    expect(byDefault.settlements).toEqual(expectedEntries(receipts, DEMO));
    // Through the mounted builder API too.
    const mounted = await api.call("GET", PATH, { key });
    expect(await mounted.json()).toEqual(byDefault);

    const other = await allPages(historyApp({ blocks: 50, events: 1 }), OTHER);
    expect(other.flatMap((p) => p.settlements)).toEqual(expectedEntries(receipts, OTHER));
    expect(other.flatMap((p) => p.settlements)).toHaveLength(2);
  });

  it("answers an unregistered code with empty pages and a cursor until the snapshot is read (rule 3)", async () => {
    const pages = await allPages(historyApp({ blocks: 60, events: 5 }), "nobody-here");
    const finalized = await devnet.publicClient.getBlock({ blockTag: "finalized" });
    expect(pages.length).toBe(
      Math.ceil(Number(finalized.number - BigInt(devnet.manifest.deploymentBlock) + 1n) / 60),
    );
    for (const page of pages.slice(0, -1)) {
      expect(page.settlements).toEqual([]);
      expect(page.totalsByToken).toEqual([]);
      expect(typeof page.nextCursor).toBe("string");
    }
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it("refuses altered, foreign and oversized cursors and unknown parameters with 400", async () => {
    const get = historyApp({ blocks: 9, events: 2 });
    const first = (await (await get({ code: DEMO })).json()) as Body;
    const cursor = first.nextCursor!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThanOrEqual(1_500);
    expect((await get({ code: DEMO, cursor })).status).toBe(200);

    const [body, signature] = cursor.split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const rewound = Buffer.from(JSON.stringify({ ...payload, block: "1" })).toString("base64url");
    const cases: [Record<string, string>, string][] = [
      [{ code: DEMO, cursor: `${rewound}.${signature}` }, "cursor"],
      [
        { code: DEMO, cursor: `${body}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}` },
        "cursor",
      ],
      [{ code: DEMO, cursor: "not-a-cursor" }, "cursor"],
      [{ code: OTHER, cursor }, "cursor"],
      [{ code: DEMO, cursor: "A".repeat(1_501) }, "cursor"],
      [{ code: "x!" }, "code"],
      [{ code: DEMO, limit: "5" }, ""],
    ];
    for (const [query, path] of cases) {
      const response = await get(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      const error = (
        (await response.json()) as { error: { code: string; issues: { path: string; message: string }[] } }
      ).error;
      expect(error.code).toBe("INVALID_REQUEST");
      expect(error.issues[0]!.path).toBe(path);
      if (query.limit) expect(error.issues[0]!.message).toContain("limit");
    }
    const foreign = await (await get({ code: OTHER, cursor })).json();
    expect(JSON.stringify(foreign)).toContain("another builder code");
  });

  it("stays readable while the builder is suspended (rule 5)", async () => {
    const before = (await (await historyApp()({ code: DEMO })).json()) as Body;
    const { demoBuilder } = devnet.manifest.junction;
    const suspend = (enabled: boolean) =>
      kit.send(GOVERNANCE, {
        to: devnet.manifest.contracts.builderRegistry,
        data: encodeFunctionData({
          abi: builderRegistryArtifact.abi,
          functionName: "setBuilderEnabled",
          args: [demoBuilder.builderId, enabled],
        }),
      });
    await suspend(false);
    try {
      const profile = await devnet.publicClient.readContract({
        address: devnet.manifest.contracts.builderRegistry,
        abi: builderRegistryArtifact.abi,
        functionName: "builderByCode",
        args: [DEMO],
      });
      expect(profile.enabled).toBe(false);
      const during = (await (await historyApp()({ code: DEMO })).json()) as Body;
      expect(during.settlements).toEqual(before.settlements);
      expect(during.settlements).toHaveLength(5);
    } finally {
      await suspend(true);
    }
  });

  it("needs a live key with the receipts scope", async () => {
    const get = historyApp();
    expect((await get({ code: DEMO }, "")).status).toBe(401);
    expect((await get({ code: DEMO }, "jct_not-a-real-key")).status).toBe(401);
    const workspace = await api.workspace();
    const tokensOnly = await api.key(workspace.id, ["tokens"]);
    const forbidden = await get({ code: DEMO }, tokensOnly);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
    // Another workspace's receipts key may read any builder code: history is public on-chain data.
    const reader = await api.key(workspace.id, ["receipts"]);
    expect((await get({ code: DEMO }, reader)).status).toBe(200);
  });

  it("answers 503 without the node's details when the node is unreachable", async () => {
    const app = createApp((error) => {
      throw error;
    });
    const deadClient = createPublicClient({
      transport: http("http://127.0.0.1:9/secret-path", { retryCount: 0 }),
    });
    registerHistoryRoute(app, { ...api.deps, client: deadClient as never });
    const response = await app.request(`${PATH}?code=${DEMO}`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: {
        code: "UPSTREAM_UNAVAILABLE",
        reason: "rpc-unavailable",
        message: "the chain node did not answer",
      },
    });
    expect(text).not.toContain("secret-path");
  });

  // Last: it rewrites the chain.
  it("answers 409 once a reorg replaced the pinned finalized block, and a fresh pagination works", async () => {
    const get = historyApp({ blocks: 9, events: 2 });
    const snapshot = await devnet.testClient.snapshot();
    await devnet.testClient.mine({ blocks: 3 });
    const first = (await (await get({ code: DEMO })).json()) as Body;
    expect(first.nextCursor).not.toBeNull();
    expect((await get({ code: DEMO, cursor: first.nextCursor! })).status).toBe(200);

    // The chain goes back below the pinned block: it no longer reaches it.
    await devnet.testClient.revert({ id: snapshot });
    const shorter = await get({ code: DEMO, cursor: first.nextCursor! });
    expect(shorter.status).toBe(409);
    expect(await shorter.json()).toMatchObject({ error: { code: "SNAPSHOT_NOT_CANONICAL" } });

    // Other blocks at the same heights, finalized again: the pinned height now has another hash.
    await devnet.testClient.increaseTime({ seconds: 60 });
    await devnet.testClient.mine({ blocks: 3 });
    const replaced = await devnet.publicClient.getBlock({
      blockNumber: BigInt(first.finalizedThrough as string),
    });
    expect(replaced.hash).not.toBe(first.snapshotHash);
    const stale = await get({ code: DEMO, cursor: first.nextCursor! });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: {
        code: "SNAPSHOT_NOT_CANONICAL",
        message: `block ${first.finalizedThrough} is no longer ${first.snapshotHash}: restart pagination`,
      },
    });

    const restarted = await allPages(get, DEMO);
    expect(restarted[0]!.snapshotHash).toBe(replaced.hash);
    expect(restarted.flatMap((p) => p.settlements)).toEqual(expectedEntries(receipts, DEMO));
  });

  it("never reads a settlement index a reorg made stale, and rebuilds it on its next sync", async () => {
    const index = createSettlementIndex({
      client: devnet.publicClient,
      db: api.deps.db,
      collector: devnet.manifest.contracts.settlementCollector,
      deploymentBlock: BigInt(devnet.manifest.deploymentBlock),
    });
    const snapshot = await devnet.testClient.snapshot();
    await devnet.testClient.mine({ blocks: 3 });
    await index.sync();
    const covered = (await index.coverage())!;
    // Other blocks at the indexed heights: the index's own block is no longer canonical.
    await devnet.testClient.revert({ id: snapshot });
    await devnet.testClient.increaseTime({ seconds: 60 });
    await devnet.testClient.mine({ blocks: 3 });
    const now = await devnet.publicClient.getBlock({ blockNumber: covered.through });
    expect(now.hash).not.toBe(covered.hash);
    const { client, counter } = countingClient();
    const get = historyApp(undefined, { client, settlementIndex: index });
    expect((await allPages(get, DEMO)).flatMap((p) => p.settlements)).toEqual(
      expectedEntries(receipts, DEMO),
    );
    // Read from the chain: the stale index was not trusted.
    expect(counter.getLogs).toBeGreaterThan(0);
    expect(await index.sync()).toMatchObject({ reset: true, from: BigInt(devnet.manifest.deploymentBlock) });
    counter.getLogs = 0;
    expect((await allPages(get, DEMO)).flatMap((p) => p.settlements)).toEqual(
      expectedEntries(receipts, DEMO),
    );
    expect(counter.getLogs).toBe(0);
  });
});
