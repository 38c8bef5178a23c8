import {
  type Address,
  type Hex,
  type Log,
  type PublicClient,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import type { Contracts } from "../config/deployment.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { quoteForKey } from "../store/repositories/builder-quotes.ts";
import { insertSettlement, settlementOfQuote } from "../store/repositories/settlements.ts";
import type { Db } from "../store/schema.ts";
import { builderIdOf } from "./builder-code.ts";
import { keyIdHashOf } from "./key-id-hash.ts";

/** The receipt verification resource (docs/rules.md, receipt rule 3), in domain types. */
export type ReceiptVerification = {
  status: "confirming" | "finalized";
  hash: Hex;
  quoteId: Hex;
  builderCode: string;
  tokenOut: Address;
  routeFee: bigint;
  builderFee: bigint;
  amountOut: bigint;
  /** Where the settlement is (once the transaction is mined). */
  blockNumber: bigint | null;
  blockHash: Hex | null;
  logIndex: number | null;
};

export class ReceiptError extends JunctionError {
  override name = "ReceiptError";
  constructor(
    /**
     * PLAN_NOT_FOUND: no such quote for this key. RECEIPT_MISMATCH: the transaction does not settle it.
     * TRANSACTION_NOT_FOUND: the chain never saw it, and it can no longer settle the quote.
     */
    code: "PLAN_NOT_FOUND" | "RECEIPT_MISMATCH" | "TRANSACTION_NOT_FOUND",
    message: string,
  ) {
    super(code, message);
  }
}

export type ReceiptDeps = { db: Db; client: PublicClient; contracts: Contracts };

/**
 * How long past the quote's transaction deadline, by the chain's own clock (the latest block's time), a hash
 * the node does not know still answers `confirming` (it may yet reach this node). After it, the transaction
 * can no longer settle the quote (the executor reverts past the deadline): 409 TRANSACTION_NOT_FOUND.
 */
export const UNKNOWN_TRANSACTION_GRACE_SECONDS = 60;

/**
 * Receipt verification (docs/rules.md, receipt rules 1-2 and state rules 1-2): `confirming`
 * until the transaction's block is finalized; then the block must still be canonical, the transaction
 * successful, and its settlement record (the collector's `Settled` event, or the executor's `Attributed`
 * event when no fee was charged) must carry this quote id, the builder id and the hash of
 * the key that prepared it. The verified settlement is recorded once as `finalized`; repeats answer from the
 * record. Only the key that issued the quote can verify it.
 */
export async function verifyReceipt(
  deps: ReceiptDeps,
  principal: { keyId: string },
  input: { quoteId: string; hash: Hex; builderCode?: string },
): Promise<ReceiptVerification> {
  const quote = await quoteForKey(deps.db, input.quoteId, principal.keyId);
  if (!quote) throw new ReceiptError("PLAN_NOT_FOUND", "no quote with this id for this key");
  if (input.builderCode !== undefined && input.builderCode !== quote.builder_code)
    throw new ReceiptError(
      "RECEIPT_MISMATCH",
      `the quote is attributed to ${quote.builder_code}, not ${input.builderCode}`,
    );
  const quoteId = quote.id as Hex;

  const recorded = await settlementOfQuote(deps.db, quote.id);
  if (recorded) {
    if (recorded.hash !== input.hash.toLowerCase())
      throw new ReceiptError("RECEIPT_MISMATCH", "this quote was settled by another transaction");
    return {
      status: "finalized",
      hash: recorded.hash as Hex,
      quoteId,
      builderCode: recorded.builder_code,
      tokenOut: recorded.token_out as Address,
      routeFee: BigInt(recorded.route_fee),
      builderFee: BigInt(recorded.builder_fee),
      amountOut: BigInt(recorded.amount_out),
      blockNumber: BigInt(recorded.block_number),
      blockHash: recorded.block_hash as Hex,
      logIndex: recorded.log_index,
    };
  }

  const expected: ReceiptVerification = {
    status: "confirming",
    hash: input.hash.toLowerCase() as Hex,
    quoteId,
    builderCode: quote.builder_code,
    tokenOut: quote.token_out as Address,
    routeFee: BigInt(quote.route_fee),
    builderFee: BigInt(quote.builder_fee),
    amountOut: BigInt(quote.amount_out),
    blockNumber: null,
    blockHash: null,
    logIndex: null,
  };
  const receipt = await receiptOrNothing(deps.client, input.hash);
  if (!receipt) {
    // Not mined (or not seen by this node) yet: confirming while it can still settle the quote.
    await refuseWhenPastDeadline(deps.client, new Date(quote.deadline));
    return expected;
  }
  if (receipt.status !== "success")
    throw new ReceiptError("RECEIPT_MISMATCH", "the transaction reverted: nothing was settled");
  const settled = settlementIn(receipt.logs, deps.contracts, quoteId);
  if (
    !settled ||
    settled.builderId !== builderIdOf(quote.builder_code) ||
    settled.keyIdHash !== keyIdHashOf(principal.keyId)
  )
    throw new ReceiptError(
      "RECEIPT_MISMATCH",
      "the transaction carries no settlement of this quote by this key's prepared swap",
    );
  const mined: ReceiptVerification = {
    ...expected,
    tokenOut: settled.tokenOut.toLowerCase() as Address,
    routeFee: settled.routeFee,
    builderFee: settled.builderFee,
    amountOut: settled.amountOut,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    logIndex: settled.logIndex,
  };

  // One round trip: the finality tip, and the canonical block at the receipt's height (which must be its own).
  const [finalized, canonical] = await Promise.all([
    deps.client.getBlock({ blockTag: "finalized" }),
    deps.client.getBlock({ blockNumber: receipt.blockNumber }),
  ]);
  if (receipt.blockNumber > finalized.number) return mined;
  if (canonical.hash !== receipt.blockHash) return expected;

  await insertSettlement(deps.db, {
    quote_id: quote.id,
    key_id: principal.keyId,
    hash: mined.hash,
    block_number: receipt.blockNumber,
    block_hash: receipt.blockHash,
    log_index: settled.logIndex,
    builder_code: quote.builder_code,
    token_out: mined.tokenOut,
    gross_amount_out: settled.grossAmountOut,
    route_fee: mined.routeFee,
    builder_fee: mined.builderFee,
    amount_out: mined.amountOut,
  });
  return { ...mined, status: "finalized" };
}

/**
 * The quote's settlement record among a receipt's logs: the collector's `Settled` event, or the executor's
 * `Attributed` event when no fee was charged (its gross output is its output, both fees zero).
 */
function settlementIn(logs: readonly Log[], contracts: Contracts, quoteId: Hex) {
  const collector = contracts.settlementCollector.toLowerCase();
  const executor = contracts.executor.toLowerCase();
  const settled = parseEventLogs({
    abi: executorArtifact.abi,
    eventName: "Settled",
    logs: [...logs],
  }).find((log) => log.address.toLowerCase() === collector && log.args.quoteId.toLowerCase() === quoteId);
  if (settled) return { ...settled.args, logIndex: settled.logIndex };
  const attributed = parseEventLogs({
    abi: executorArtifact.abi,
    eventName: "Attributed",
    logs: [...logs],
  }).find((log) => log.address.toLowerCase() === executor && log.args.quoteId.toLowerCase() === quoteId);
  if (!attributed) return undefined;
  const { args } = attributed;
  return {
    ...args,
    grossAmountOut: args.amountOut,
    routeFee: 0n,
    builderFee: 0n,
    logIndex: attributed.logIndex,
  };
}

/** The transaction's receipt, or undefined while the node knows of no mined transaction with this hash. */
async function receiptOrNothing(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  }
}

/**
 * For a hash the node has not mined: once the chain's latest block is past the quote's deadline by the
 * grace period, no block can still include a transaction that settles it, so polling ends with a 409.
 */
async function refuseWhenPastDeadline(client: PublicClient, deadline: Date): Promise<void> {
  const deadlineSeconds = BigInt(Math.floor(deadline.getTime() / 1000));
  const latest = await client.getBlock({ blockTag: "latest" });
  if (latest.timestamp <= deadlineSeconds + BigInt(UNKNOWN_TRANSACTION_GRACE_SECONDS)) return;
  throw new ReceiptError(
    "TRANSACTION_NOT_FOUND",
    `the chain has no transaction with this hash, and the quote's deadline (${deadlineSeconds}) passed more than ${UNKNOWN_TRANSACTION_GRACE_SECONDS} s before its latest block (${latest.timestamp}): it can no longer settle this quote`,
  );
}
