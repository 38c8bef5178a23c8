import { createPublicClient, encodeFunctionData, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allPages,
  DEMO,
  expectedEntries,
  GOVERNANCE,
  type HistoryBody,
  type HistoryFixture,
  OTHER,
  PATH,
  startHistoryFixture,
  sums,
} from "../../../../test/history-fixture.ts";
import { builderIdOf } from "../../../builders/builder-code.ts";
import { createSettlementIndex } from "../../../builders/settlement-index.ts";
import { settlementSources } from "../../../builders/settlement-logs.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";
import { createApp } from "../../create-app.ts";
import { registerHistoryRoute } from "./history.ts";

/**
 * `GET /api/v2/builders/history` on a devnet (`test/history-fixture.ts`: real executor swaps attributed to
 * the demo builder and to an unregistered code, several in one block, interleaved), read back page by page
 * with small page limits and compared with the `Settled` events of the swap receipts; then the cursor's
 * guarantees, a suspended builder, an unreachable node and the gate. Reorgs: history-reorg.devnet.test.ts.
 */
let devnet: HistoryFixture["devnet"];
let api: HistoryFixture["api"];
let kit: HistoryFixture["kit"];
let key: string;
let receipts: HistoryFixture["receipts"];
let historyApp: HistoryFixture["historyApp"];
let countingClient: HistoryFixture["countingClient"];
let fixture: HistoryFixture | undefined;

beforeAll(async () => {
  fixture = await startHistoryFixture();
  ({ devnet, api, kit, key, receipts, historyApp, countingClient } = fixture);
}, 300_000);
afterAll(async () => {
  await fixture?.close();
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
      sources: settlementSources(devnet.manifest.contracts),
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
    // One read per record source (the collector's `Settled`, the executor's `Attributed`); none of the
    // registry, as the new blocks hold no `Attributed` record to complete.
    expect(counter.getLogs).toBe(2);
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
    const byDefault = (await (await historyApp()({})).json()) as HistoryBody;
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
    const first = (await (await get({ code: DEMO })).json()) as HistoryBody;
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
    const before = (await (await historyApp()({ code: DEMO })).json()) as HistoryBody;
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
      const during = (await (await historyApp()({ code: DEMO })).json()) as HistoryBody;
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
});
