import { type Address, BlockNotFoundError, type Hex, type PublicClient } from "viem";
import type { LogScanner } from "../chain/log-scanner.ts";
import { fromNode } from "../chain/upstream-error.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { builderIdOf } from "./builder-code.ts";
import { BUILDER_LIMITS } from "./limits.ts";
import { readSettlementLogs, type SettlementSources } from "./settlement-logs.ts";

/**
 * The reads history needs: `eth_getLogs`, `eth_getBlockByNumber` (tag `finalized` and by number), and
 * `eth_call` of the registry at a past block (an `Attributed` record's policy).
 */
export type HistoryClient = Pick<PublicClient, "getBlock" | "getLogs" | "readContract">;

/** The finalized block a pagination is pinned to: every page reads up to it and checks it is still canonical. */
export type HistorySnapshot = { finalizedThrough: bigint; snapshotHash: Hex };

/** Where a page starts: block `block`, skipping its events up to and including `afterLogIndex` (null: none). */
export type HistoryPosition = { block: bigint; afterLogIndex: number | null };

/** What a follow-up page needs; the API carries it in the signed cursor. */
export type HistoryResume = { snapshot: HistorySnapshot; position: HistoryPosition };

/**
 * One settlement record (the collector's `Settled` event, or the executor's `Attributed` event of a swap that
 * charged no fee) as a settlement entry (docs/rules.md, history page; amounts still bigint).
 */
export type SettlementEntry = {
  quoteId: Hex;
  builderCode: string;
  builderId: Hex;
  keyIdHash: Hex;
  payer: Address;
  recipient: Address;
  tokenIn: Address;
  amountIn: bigint;
  tokenOut: Address;
  grossAmountOut: bigint;
  routeFee: bigint;
  builderFee: bigint;
  amountOut: bigint;
  builderRecipient: Address;
  policyVersion: bigint;
  hash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  logIndex: number;
  status: "finalized";
};

/** Sums of one output token's settlements on a page. */
export type TokenTotals = {
  tokenOut: Address;
  grossAmountOut: bigint;
  routeFee: bigint;
  builderFee: bigint;
  amountOut: bigint;
  count: number;
};

export type HistoryPage = {
  code: string;
  builderId: Hex;
  snapshot: HistorySnapshot;
  /** Inclusive block range this page read; `scannedThrough = scannedFrom - 1` when nothing was left to read. */
  scannedFrom: bigint;
  scannedThrough: bigint;
  settlements: SettlementEntry[];
  totalsByToken: TokenTotals[];
  /** Null once the snapshot is complete. */
  next: HistoryResume | null;
};

export type HistoryPageRequest = {
  code: string;
  /** The reviewed collector, the executor and the registry (docs/rules.md, history rule 1). */
  sources: SettlementSources;
  /** The collector's deployment block: the first page starts there. */
  deploymentBlock: bigint;
  /** Absent on the first page, which pins the current finalized block. */
  resume?: HistoryResume;
  /** Page limits (docs/rules.md, history rule 2); smaller values only in tests. */
  limits?: { blocks: number; events: number };
  /** The settlement index: the page reads it for the range it covers, the chain for the rest. */
  index?: SettlementIndexReader;
};

/** The settlement index as history reads it (see settlement-index.ts). */
export type SettlementIndexReader = {
  /** The finalized block the index reaches and its hash; undefined before its first sync. */
  coverage: () => Promise<{ through: bigint; hash: Hex } | undefined>;
  /** The builder's indexed entries from block `from` through `to`, in chain order. */
  read: (builderId: Hex, code: string, from: bigint, to: bigint) => Promise<SettlementEntry[]>;
  /**
   * How the index sizes its `eth_getLogs` ranges to the node: a page reading the chain past the index reads
   * within them (a node capping ranges below a page's 1,000 blocks still serves it). Absent: one request.
   */
  logs?: LogScanner;
};

/** The pinned finalized snapshot stopped being canonical: restart pagination. */
export class HistoryError extends JunctionError {
  override name = "HistoryError";
  constructor(message: string) {
    super("SNAPSHOT_NOT_CANONICAL", message);
  }
}

/**
 * Reads one page of a builder's finalized settlement history straight from the settlement records
 * (docs/rules.md, history rules 1-6): at most `limits.blocks` blocks and `limits.events` events, in chain
 * order (block, then log index). The first page pins the current finalized block; every page reads up to it
 * and, after reading, checks that the pinned block still has the pinned hash (else SNAPSHOT_NOT_CANONICAL: a
 * reorg reached below finality, restart). Blocks at or below a canonical finalized block are canonical, so
 * that one check covers every log read. When the event cap cuts a block range, the next page resumes right
 * after the last returned event. History reads events only: a suspended builder stays readable, an
 * unregistered code has no events.
 */
export function readHistoryPage(client: HistoryClient, request: HistoryPageRequest): Promise<HistoryPage> {
  // A node failure anywhere in the page is UpstreamUnavailableError; its body never leaves this module.
  return fromNode(() => readPage(client, request));
}

async function readPage(client: HistoryClient, request: HistoryPageRequest): Promise<HistoryPage> {
  const limits = request.limits ?? {
    blocks: BUILDER_LIMITS.historyPageBlocks,
    events: BUILDER_LIMITS.historyPageEvents,
  };
  if (!(limits.blocks >= 1 && limits.events >= 1)) throw new RangeError("page limits must be at least 1");
  const builderId = builderIdOf(request.code);
  const snapshot = request.resume?.snapshot ?? (await pinFinalized(client));
  const position = request.resume?.position ?? { block: request.deploymentBlock, afterLogIndex: null };
  const from = position.block;
  const to = min(from + BigInt(limits.blocks) - 1n, snapshot.finalizedThrough);

  const read = from > to ? [] : await readRange(client, request, builderId, from, to);
  await assertCanonical(client, snapshot);

  const entries = read
    .filter(
      (entry) =>
        entry.blockNumber > from ||
        position.afterLogIndex === null ||
        entry.logIndex > position.afterLogIndex,
    )
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );

  let settlements = entries;
  let scannedThrough = from > to ? from - 1n : to;
  let next: HistoryPosition | null =
    to < snapshot.finalizedThrough ? { block: to + 1n, afterLogIndex: null } : null;
  if (entries.length > limits.events) {
    settlements = entries.slice(0, limits.events);
    const last = settlements.at(-1)!;
    scannedThrough = last.blockNumber;
    next = { block: last.blockNumber, afterLogIndex: last.logIndex };
  }
  return {
    code: request.code,
    builderId,
    snapshot,
    scannedFrom: from,
    scannedThrough,
    settlements,
    totalsByToken: totalsByToken(settlements),
    next: next ? { snapshot, position: next } : null,
  };
}

/** docs/rules.md, history rule 4: sums per output-token address, never across tokens; ordered by address. */
export function totalsByToken(settlements: readonly SettlementEntry[]): TokenTotals[] {
  const byToken = new Map<string, TokenTotals>();
  for (const s of settlements) {
    const key = s.tokenOut.toLowerCase();
    const totals = byToken.get(key) ?? {
      tokenOut: s.tokenOut,
      grossAmountOut: 0n,
      routeFee: 0n,
      builderFee: 0n,
      amountOut: 0n,
      count: 0,
    };
    totals.grossAmountOut += s.grossAmountOut;
    totals.routeFee += s.routeFee;
    totals.builderFee += s.builderFee;
    totals.amountOut += s.amountOut;
    totals.count += 1;
    byToken.set(key, totals);
  }
  return [...byToken.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, totals]) => totals);
}

/**
 * The builder's settlements from `from` through `to`: from the settlement index for the part it covers
 * when the index's own block is still canonical (then every block below it is), from `eth_getLogs` for the
 * rest; all from the chain without an index.
 */
async function readRange(
  client: HistoryClient,
  request: HistoryPageRequest,
  builderId: Hex,
  from: bigint,
  to: bigint,
): Promise<SettlementEntry[]> {
  const covered = request.index ? await request.index.coverage() : undefined;
  let indexed: SettlementEntry[] = [];
  let chainFrom = from;
  if (
    covered &&
    covered.through >= from &&
    (await hashAt(client, covered.through)) === covered.hash.toLowerCase()
  ) {
    const indexedTo = min(covered.through, to);
    indexed = await request.index!.read(builderId, request.code, from, indexedTo);
    chainFrom = indexedTo + 1n;
  }
  if (chainFrom > to) return indexed;
  const read = (from: bigint, to: bigint) => readSettlementLogs(client, request.sources, from, to, builderId);
  const logs = await (request.index?.logs
    ? request.index.logs.scan(chainFrom, to, read)
    : read(chainFrom, to));
  return [...indexed, ...logs.map((entry) => ({ ...entry, builderCode: request.code }))];
}

async function hashAt(client: HistoryClient, blockNumber: bigint): Promise<string | undefined> {
  try {
    return (await client.getBlock({ blockNumber })).hash?.toLowerCase();
  } catch (error) {
    if (error instanceof BlockNotFoundError) return undefined;
    throw error;
  }
}

async function pinFinalized(client: HistoryClient): Promise<HistorySnapshot> {
  const block = await client.getBlock({ blockTag: "finalized" });
  return { finalizedThrough: block.number, snapshotHash: block.hash };
}

async function assertCanonical(client: HistoryClient, snapshot: HistorySnapshot): Promise<void> {
  let hash: Hex | null;
  try {
    hash = (await client.getBlock({ blockNumber: snapshot.finalizedThrough })).hash;
  } catch (error) {
    // The chain no longer reaches the pinned height: it was reorged to a shorter one.
    if (error instanceof BlockNotFoundError) hash = null;
    else throw error;
  }
  if (hash?.toLowerCase() !== snapshot.snapshotHash.toLowerCase())
    throw new HistoryError(
      `block ${snapshot.finalizedThrough} is no longer ${snapshot.snapshotHash}: restart pagination`,
    );
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
