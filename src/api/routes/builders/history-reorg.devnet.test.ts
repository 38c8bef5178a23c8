import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allPages,
  DEMO,
  expectedEntries,
  type HistoryBody,
  type HistoryFixture,
  startHistoryFixture,
} from "../../../../test/history-fixture.ts";
import { createSettlementIndex } from "../../../builders/settlement-index.ts";
import { settlementSources } from "../../../builders/settlement-logs.ts";

/**
 * `GET /api/v2/builders/history` when the chain is rewritten under it (the fixture's swaps as in
 * history.devnet.test.ts): a pinned finalized block a reorg replaced answers 409 and a fresh pagination
 * works, and a settlement index a reorg made stale is never read.
 */
let devnet: HistoryFixture["devnet"];
let api: HistoryFixture["api"];
let receipts: HistoryFixture["receipts"];
let historyApp: HistoryFixture["historyApp"];
let countingClient: HistoryFixture["countingClient"];
let fixture: HistoryFixture | undefined;

beforeAll(async () => {
  fixture = await startHistoryFixture();
  ({ devnet, api, receipts, historyApp, countingClient } = fixture);
}, 300_000);
afterAll(async () => {
  await fixture?.close();
});

describe("GET /api/v2/builders/history across reorgs", () => {
  it("answers 409 once a reorg replaced the pinned finalized block, and a fresh pagination works", async () => {
    const get = historyApp({ blocks: 9, events: 2 });
    const snapshot = await devnet.testClient.snapshot();
    await devnet.testClient.mine({ blocks: 3 });
    const first = (await (await get({ code: DEMO })).json()) as HistoryBody;
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
      sources: settlementSources(devnet.manifest.contracts),
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
