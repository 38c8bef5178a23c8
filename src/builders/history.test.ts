import { type Address, BlockNotFoundError, getAddress, type Hex, HttpRequestError, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createLogScanner } from "../chain/log-scanner.ts";
import { UpstreamUnavailableError } from "../chain/upstream-error.ts";
import { builderIdOf } from "./builder-code.ts";
import {
  type HistoryClient,
  type HistoryResume,
  readHistoryPage,
  type SettlementEntry,
  totalsByToken,
} from "./history.ts";

/**
 * The paging rules against a scripted node (the devnet test runs them against anvil): where a page starts and
 * stops, the event cap cutting inside a block, and the canonical check happening after the logs are read.
 * The node answers like viem's decoded `getLogs` for the requested range.
 */
const CODE = "junction-demo";
const COLLECTOR = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707" as Address;
const EXECUTOR = "0x0165878A594ca255338adfa4d48449f69242Eb8F" as Address;
const SOURCES = { collector: COLLECTOR, executor: EXECUTOR, registry: zeroAddress };
const TOKEN_A = getAddress("0x00000000000000000000000000000000000000aa");
const TOKEN_B = getAddress("0x00000000000000000000000000000000000000bb");
const hashOf = (n: bigint, fork = 0) =>
  `0x${(n + BigInt(fork) * 10n ** 6n).toString(16).padStart(64, "0")}` as Hex;

type Event = { block: bigint; logIndex: number; tokenOut: Address; gross: bigint };

function node(events: Event[], finalized: bigint, options: { onGetLogs?: () => void } = {}) {
  const calls: string[] = [];
  let fork = 0;
  const client = {
    getBlock: async (params: { blockTag?: string; blockNumber?: bigint }) => {
      const number = params.blockTag === "finalized" ? finalized : params.blockNumber!;
      calls.push(params.blockTag === "finalized" ? "finalized" : `block ${number}`);
      if (number > finalized + 2n) throw new BlockNotFoundError({ blockNumber: number });
      return { number, hash: hashOf(number, fork) };
    },
    getLogs: async (params: {
      address: Address;
      fromBlock: bigint;
      toBlock: bigint;
      args: { builderId: Hex };
    }) => {
      expect(params.args.builderId).toBe(builderIdOf(CODE));
      // This node's builder has fee-charging settlements only: the executor has no `Attributed` record.
      if (params.address === EXECUTOR) return [];
      expect(params.address).toBe(COLLECTOR);
      calls.push(`logs ${params.fromBlock}-${params.toBlock}`);
      options.onGetLogs?.();
      return events
        .filter((e) => e.block >= params.fromBlock && e.block <= params.toBlock)
        .reverse() // order is the node's business; the page sorts
        .map((e) => ({
          blockNumber: e.block,
          blockHash: hashOf(e.block, fork),
          transactionHash: `0x${"11".repeat(32)}`,
          logIndex: e.logIndex,
          args: {
            builderId: params.args.builderId,
            quoteId: `0x${e.block.toString(16).padStart(60, "0")}${e.logIndex.toString(16).padStart(4, "0")}`,
            payer: zeroAddress,
            keyIdHash: `0x${"22".repeat(32)}`,
            recipient: zeroAddress,
            tokenIn: zeroAddress,
            amountIn: 1n,
            tokenOut: e.tokenOut,
            grossAmountOut: e.gross,
            routeFee: e.gross / 100n,
            builderFee: e.gross / 1000n,
            amountOut: e.gross - e.gross / 100n - e.gross / 1000n,
            builderRecipient: zeroAddress,
            policyVersion: 1n,
          },
        }));
    },
  };
  return { client: client as unknown as HistoryClient, calls, reorg: () => fork++ };
}

async function readAll(client: HistoryClient, limits: { blocks: number; events: number }) {
  const pages = [];
  let resume: HistoryResume | undefined;
  do {
    const page = await readHistoryPage(client, {
      code: CODE,
      sources: SOURCES,
      deploymentBlock: 10n,
      ...(resume ? { resume } : {}),
      limits,
    });
    pages.push(page);
    resume = page.next ?? undefined;
  } while (resume && pages.length < 100);
  return pages;
}

const key = (s: SettlementEntry) => `${s.blockNumber}:${s.logIndex}`;

describe("readHistoryPage", () => {
  const events: Event[] = [
    { block: 10n, logIndex: 0, tokenOut: TOKEN_A, gross: 1000n },
    { block: 12n, logIndex: 3, tokenOut: TOKEN_B, gross: 2000n },
    { block: 12n, logIndex: 5, tokenOut: TOKEN_A, gross: 3000n },
    { block: 12n, logIndex: 9, tokenOut: TOKEN_A, gross: 4000n },
    { block: 17n, logIndex: 1, tokenOut: TOKEN_B, gross: 5000n },
    { block: 20n, logIndex: 0, tokenOut: TOKEN_A, gross: 6000n },
  ];
  const expected = events.map((e) => `${e.block}:${e.logIndex}`);

  it("returns every event once, in order, whatever the page limits", async () => {
    for (const blocks of [1, 2, 3, 5, 11, 1000])
      for (const limit of [1, 2, 3, 1000]) {
        const { client } = node(events, 20n);
        const pages = await readAll(client, { blocks, events: limit });
        const seen = pages.flatMap((p) => p.settlements.map(key));
        expect(seen, `${blocks} blocks, ${limit} events`).toEqual(expected);
        for (const page of pages) {
          expect(page.settlements.length).toBeLessThanOrEqual(limit);
          expect(page.scannedThrough - page.scannedFrom + 1n).toBeLessThanOrEqual(BigInt(blocks));
          expect(page.scannedThrough).toBeLessThanOrEqual(20n);
        }
        expect(pages.at(-1)!.next).toBeNull();
        expect(pages.at(-1)!.scannedThrough).toBe(20n);
      }
  });

  it("reads the chain past the index within the log ranges the index learned of the node", async () => {
    const { client, calls } = node(events, 20n);
    const index = {
      coverage: async () => undefined,
      read: async () => [],
      logs: createLogScanner({ initial: 4n, max: 4n, attempts: 1, backoffMs: 0 }),
    };
    const page = await readHistoryPage(client, {
      code: CODE,
      sources: SOURCES,
      deploymentBlock: 10n,
      index,
      limits: { blocks: 1000, events: 1000 },
    });
    expect(page.settlements.map(key)).toEqual(expected);
    expect(calls.filter((call) => call.startsWith("logs"))).toEqual([
      "logs 10-13",
      "logs 14-17",
      "logs 18-20",
    ]);
  });

  it("cuts inside a block and resumes right after the last returned event", async () => {
    const { client, calls } = node(events, 20n);
    const pages = await readAll(client, { blocks: 5, events: 2 });
    expect(pages.map((p) => [p.scannedFrom, p.scannedThrough, p.settlements.map(key)])).toEqual([
      [10n, 12n, ["10:0", "12:3"]],
      [12n, 16n, ["12:5", "12:9"]],
      [17n, 20n, ["17:1", "20:0"]],
    ]);
    expect(pages[0]!.next!.position).toEqual({ block: 12n, afterLogIndex: 3 });
    expect(pages[1]!.next!.position).toEqual({ block: 17n, afterLogIndex: null });
    // Page 2 rescans block 12 from its start and drops what page 1 returned.
    expect(calls.filter((c) => c.startsWith("logs"))).toEqual(["logs 10-14", "logs 12-16", "logs 17-20"]);
  });

  it("returns empty pages with a next position while blocks remain (rule 3)", async () => {
    const { client } = node([], 25n);
    const pages = await readAll(client, { blocks: 4, events: 10 });
    expect(pages.map((p) => [p.scannedFrom, p.scannedThrough, p.next !== null])).toEqual([
      [10n, 13n, true],
      [14n, 17n, true],
      [18n, 21n, true],
      [22n, 25n, false],
    ]);
    expect(pages.every((p) => p.settlements.length === 0 && p.totalsByToken.length === 0)).toBe(true);
  });

  it("pins the finalized block on the first page and keeps it on later ones", async () => {
    const { client, calls } = node(events, 20n);
    const pages = await readAll(client, { blocks: 6, events: 10 });
    expect(pages.map((p) => p.snapshot)).toEqual(
      pages.map(() => ({ finalizedThrough: 20n, snapshotHash: hashOf(20n) })),
    );
    expect(calls.filter((c) => c === "finalized")).toHaveLength(1);
  });

  it("checks the snapshot after reading the logs, so a reorg during the read is a 409", async () => {
    let reorg = () => {};
    const scripted = node(events, 20n, { onGetLogs: () => reorg() });
    reorg = scripted.reorg;
    const first = readHistoryPage(scripted.client, {
      code: CODE,
      sources: SOURCES,
      deploymentBlock: 10n,
      limits: { blocks: 3, events: 10 },
    });
    await expect(first).rejects.toMatchObject({ name: "HistoryError", code: "SNAPSHOT_NOT_CANONICAL" });
    expect(scripted.calls).toEqual(["finalized", "logs 10-12", "block 20"]);
  });

  it("is a 409 when the chain no longer reaches the pinned block, a 503 when the node fails", async () => {
    const resume: HistoryResume = {
      snapshot: { finalizedThrough: 30n, snapshotHash: hashOf(30n) },
      position: { block: 10n, afterLogIndex: null },
    };
    const { client } = node(events, 20n);
    const request = { code: CODE, sources: SOURCES, deploymentBlock: 10n, resume };
    await expect(readHistoryPage(client, request)).rejects.toMatchObject({ code: "SNAPSHOT_NOT_CANONICAL" });

    const fail = async () => {
      throw new HttpRequestError({ url: "http://node.invalid/secret-token", body: { x: 1 } });
    };
    const failing = {
      getBlock: fail,
      getLogs: fail,
    } as unknown as HistoryClient;
    const error = await readHistoryPage(failing, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", message: "the chain node did not answer" });
  });
});

describe("totalsByToken", () => {
  it("sums per output token, never across tokens, ordered by address", () => {
    const entry = (tokenOut: Address, gross: bigint) =>
      ({
        tokenOut,
        grossAmountOut: gross,
        routeFee: 2n,
        builderFee: 1n,
        amountOut: gross - 3n,
      }) as SettlementEntry;
    expect(
      totalsByToken([
        entry(TOKEN_B, 10n),
        entry(TOKEN_A, 2n ** 255n),
        entry(TOKEN_B, 20n),
        entry(TOKEN_A, 2n ** 255n),
      ]),
    ).toEqual([
      {
        tokenOut: TOKEN_A,
        grossAmountOut: 2n ** 256n,
        routeFee: 4n,
        builderFee: 2n,
        amountOut: 2n ** 256n - 6n,
        count: 2,
      },
      { tokenOut: TOKEN_B, grossAmountOut: 30n, routeFee: 4n, builderFee: 2n, amountOut: 24n, count: 2 },
    ]);
  });
});
