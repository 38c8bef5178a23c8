import type { Address, Hex } from "viem";
import { quantity, rpc, rpcBatch } from "./json-rpc.ts";

/** A transaction from an unlocked anvil account, with its nonce and gas limit fixed by the sender. */
export type Tx = {
  from: Address;
  nonce: number;
  to?: Address;
  data: Hex;
  value?: bigint;
  /** Fixed, so anvil packs blocks by it and never estimates against a state the block has not reached. */
  gas: bigint;
  label: string;
};

/** Hands out each account's next nonce, read once from the node. */
export type Nonces = { take: (from: Address) => number };

export async function createNonces(url: string, accounts: readonly Address[]): Promise<Nonces> {
  const counts = await rpcBatch<Hex>(
    url,
    accounts.map((account) => ({ method: "eth_getTransactionCount", params: [account, "pending"] })),
  );
  const next = new Map(accounts.map((account, i) => [account.toLowerCase(), Number(counts[i])]));
  return {
    take: (from) => {
      const key = from.toLowerCase();
      const nonce = next.get(key);
      if (nonce === undefined) throw new Error(`no nonce for ${from}: not one of the accounts read`);
      next.set(key, nonce + 1);
      return nonce;
    },
  };
}

/**
 * A fee cap far above any base fee these chains reach: a transaction left for the next block (the block was
 * full) must never become unminable because the base fee rose meanwhile. Only the base fee is paid.
 */
const MAX_FEE = 1_000n * 10n ** 9n;

export type Mined = { blocks: number[]; succeeded: number; failed: string[]; gasUsed: bigint };

/**
 * anvil's cost of taking in pending transactions and of `eth_getBlockReceipts` grows faster than the
 * block's transaction count (8,000 transfers: 6 s to send, 21 s for the receipts; 1,000: 0.4 and 0.15 s),
 * so a long list is mined a thousand at a time.
 */
const MAX_TXS_PER_BLOCK = 1_000;

/**
 * Sends transactions to a node whose automine is off (in batches under its body limit), mines until its
 * pool is empty, and reads every receipt, a thousand transactions at a time. Transactions that reverted
 * are returned by label; a transaction the node refused outright throws.
 */
export async function sendAndMine(url: string, txs: readonly Tx[]): Promise<Mined> {
  const mined: Mined = { blocks: [], succeeded: 0, failed: [], gasUsed: 0n };
  for (let first = 0; first < txs.length; first += MAX_TXS_PER_BLOCK) {
    const chunk = txs.slice(first, first + MAX_TXS_PER_BLOCK);
    const hashes = await sendTransactions(url, chunk);
    const blocks = await mineUntilEmpty(url);
    const receipts = await blockReceipts(url, blocks);
    const status = new Map(receipts.map((receipt) => [receipt.transactionHash, receipt.status]));
    const failed = chunk.filter((_, i) => status.get(hashes[i]!) !== "0x1").map((tx) => tx.label);
    mined.blocks.push(...blocks);
    mined.succeeded += chunk.length - failed.length;
    mined.failed.push(...failed);
    mined.gasUsed += receipts.reduce((sum, receipt) => sum + BigInt(receipt.gasUsed), 0n);
  }
  return mined;
}

/**
 * Puts transactions in the node's pool (automine off: nothing is mined); returns their hashes, in the list's
 * order. The same list makes the same chain, run after run:
 * - each pays a tip one wei less than the one before it, so the node orders the ready ones the same way
 *   whatever order their requests arrived in (with one tip for all, anvil ordered the senders as their
 *   requests happened to land);
 * - they are sent in rounds, one batch each: every sender's first transaction, then every sender's second,
 *   and so on. anvil handles a batch's requests concurrently, so a sender's next transaction in the same
 *   batch could land before the one it follows, and the block's order then varied: about one run in four
 *   of the search-scale bench left one V2 pair's reserves a few hundred million wei apart, and its routes'
 *   digest with them. Within a round no transaction depends on another.
 * The order is the node's, not always the list's: anvil 1.7.1 mines a batch of 200 transfers from ten
 * senders in list order up to the 117th and then groups each sender's later ones.
 */
export async function sendTransactions(url: string, txs: readonly Tx[]): Promise<Hex[]> {
  const rounds: number[][] = [];
  const sent = new Map<string, number>();
  txs.forEach((tx, i) => {
    const sender = tx.from.toLowerCase();
    const round = sent.get(sender) ?? 0;
    sent.set(sender, round + 1);
    const members = rounds[round] ?? [];
    members.push(i);
    rounds[round] = members;
  });
  const hashes: Hex[] = new Array(txs.length);
  for (const round of rounds) {
    const answers = await rpcBatch<Hex>(
      url,
      round.map((i) => ({ method: "eth_sendTransaction", params: [sendParams(txs[i]!, txs.length - i)] })),
      round.map((i) => txs[i]!.label),
    );
    round.forEach((i, k) => {
      hashes[i] = answers[k]!;
    });
  }
  return hashes;
}

function sendParams(tx: Tx, tip: number) {
  return {
    from: tx.from,
    to: tx.to,
    data: tx.data,
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gas),
    value: tx.value === undefined ? undefined : quantity(tx.value),
    maxFeePerGas: quantity(MAX_FEE),
    maxPriorityFeePerGas: quantity(BigInt(tip)),
  };
}

export type Receipt = { transactionHash: Hex; blockNumber: Hex; status: Hex; gasUsed: Hex };

/** Every receipt of the given blocks, one `eth_getBlockReceipts` each. */
export async function blockReceipts(url: string, blocks: readonly number[]): Promise<Receipt[]> {
  const perBlock = await rpcBatch<Receipt[]>(
    url,
    blocks.map((block) => ({ method: "eth_getBlockReceipts", params: [quantity(block)] })),
  );
  return perBlock.flat();
}

/** Mines blocks until no transaction is pending; a queued one (a nonce gap) can never be mined and throws. */
async function mineUntilEmpty(url: string): Promise<number[]> {
  const blocks: number[] = [];
  for (;;) {
    const pool = await rpc<{ pending: Hex; queued: Hex }>(url, "txpool_status");
    if (Number(pool.pending) === 0) {
      if (Number(pool.queued) > 0)
        throw new Error(`${Number(pool.queued)} transactions queued behind a nonce gap`);
      return blocks;
    }
    await rpc(url, "evm_mine");
    blocks.push(Number(await rpc<Hex>(url, "eth_blockNumber")));
  }
}
