import {
  type Account,
  type Address,
  type Chain,
  type Hex,
  isAddress,
  isHex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { WalletFlowError } from "./errors.ts";

/** An unsigned transaction as Junction returns it (`tx` of a prepared swap or a registry transaction). */
export type UnsignedTransaction = {
  from: Address | string;
  to: Address | string;
  data: Hex | string;
  value: string | bigint;
  chainId: number;
  gas?: string | bigint;
};

/** The fee fields of the final simulation, which the signature request must carry unchanged. */
export type FeeFields =
  | { type: "eip1559"; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: "legacy"; gasPrice: bigint };

/** A transaction ready for the wallet: exactly what was simulated last, at `simulatedAt`. */
export type SignableTransaction = {
  account: Address;
  to: Address;
  data: Hex;
  value: bigint;
  chainId: number;
  gas: bigint | undefined;
  fees: FeeFields;
  /** The block the final simulation ran at. */
  simulatedAt: bigint;
  /**
   * Unix seconds after which the transaction reverts (the prepared swap's `deadline`), when it was given:
   * a signature is good until then. `signAndSend` refuses to ask the wallet within {@link SIGNING_MARGIN_SECONDS}
   * of it.
   */
  validUntil: number | undefined;
};

/** What `prepareForSigning` may know of the swap besides its transaction (a prepared swap has both). */
export type SigningTerms = {
  /** Unix seconds: the transaction reverts after it. */
  deadline?: number;
  /** The clock, in ms (default `Date.now`), for tests and for apps with a server-synchronised clock. */
  now?: () => number;
};

/**
 * Signing within this many seconds of the deadline is refused: the transaction would still have to be
 * sent, mined and included before it, and a wallet's confirmation alone often takes longer.
 */
export const SIGNING_MARGIN_SECONDS = 15;

/** Seconds a signature of `signable` is still good for (`Infinity` without a deadline; never negative). */
export function secondsLeft(signable: Pick<SignableTransaction, "validUntil">, now = Date.now()): number {
  if (signable.validUntil === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, signable.validUntil - Math.floor(now / 1000));
}

/** Throws `expired` when fewer than the margin's seconds are left before `validUntil`. */
function refuseStale(validUntil: number | undefined, now: number): void {
  const left = secondsLeft({ validUntil }, now);
  if (left <= SIGNING_MARGIN_SECONDS)
    throw new WalletFlowError(
      "expired",
      left === 0
        ? "the transaction's deadline has passed; quote and prepare again"
        : `only ${left} s are left before the transaction's deadline; quote and prepare again`,
    );
}

/**
 * The client side of the wallet flow (docs/rules.md, comparison rule 16), run right before signing:
 * refresh the fee fields from the latest block (EIP-1559: `maxFeePerGas = 2 × base fee + suggested
 * priority fee`; a chain without a base fee: the legacy gas price), then simulate the exact transaction
 * again with those fields from the signer. A revert stops here, before the wallet is asked for anything.
 * The transaction is not rerouted: its calldata, value and gas stay as Junction prepared them. Given the
 * prepared swap's `deadline` (pass the prepared swap itself as `terms`), a transaction past it, or within
 * {@link SIGNING_MARGIN_SECONDS} of it, is refused as `expired` before the node or the wallet is asked
 * anything; the result's `validUntil` (and {@link secondsLeft}) says how long the signature is still good.
 */
export async function prepareForSigning(
  client: Pick<
    PublicClient,
    "getChainId" | "getBlock" | "estimateMaxPriorityFeePerGas" | "getGasPrice" | "call"
  >,
  tx: UnsignedTransaction,
  terms: SigningTerms = {},
): Promise<SignableTransaction> {
  const now = terms.now ?? Date.now;
  refuseStale(terms.deadline, now());
  const chainId = await client.getChainId();
  if (chainId !== tx.chainId)
    throw new WalletFlowError(
      "wrong-chain",
      `the transaction is for chain ${tx.chainId}, the node is on ${chainId}`,
    );
  const block = await client.getBlock({ blockTag: "latest" });
  let fees: FeeFields;
  if (block.baseFeePerGas !== null && block.baseFeePerGas !== undefined) {
    const priority = await client.estimateMaxPriorityFeePerGas();
    fees = {
      type: "eip1559",
      maxFeePerGas: 2n * block.baseFeePerGas + priority,
      maxPriorityFeePerGas: priority,
    };
  } else {
    fees = { type: "legacy", gasPrice: await client.getGasPrice() };
  }
  if (!isAddress(tx.from) || !isAddress(tx.to) || !isHex(tx.data))
    throw new TypeError("tx.from and tx.to must be addresses and tx.data hex, as Junction returns them");
  const signable: SignableTransaction = {
    account: tx.from,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    chainId: tx.chainId,
    gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
    fees,
    simulatedAt: block.number!,
    validUntil: terms.deadline,
  };
  try {
    await client.call({
      ...callFields(signable),
      account: signable.account,
      blockNumber: signable.simulatedAt,
    });
  } catch (error) {
    throw new WalletFlowError(
      "simulation-reverted",
      "the transaction reverts when simulated with fresh fee fields; nothing was signed",
      { cause: error },
    );
  }
  return signable;
}

/**
 * Asks the wallet to sign and send exactly the simulated transaction (same fee fields); returns its hash.
 * A transaction whose deadline has come within {@link SIGNING_MARGIN_SECONDS} since it was prepared for
 * signing is refused as `expired`, and the wallet is never asked.
 */
export async function signAndSend(
  wallet: WalletClient<Transport, Chain | undefined, Account | undefined>,
  signable: SignableTransaction,
  now: () => number = Date.now,
): Promise<Hex> {
  refuseStale(signable.validUntil, now());
  return wallet.sendTransaction({
    ...callFields(signable),
    account: wallet.account ?? signable.account,
    chain: wallet.chain ?? null,
  } as never);
}

function callFields(signable: SignableTransaction) {
  const { fees } = signable;
  return {
    to: signable.to,
    data: signable.data,
    value: signable.value,
    ...(signable.gas === undefined ? {} : { gas: signable.gas }),
    ...(fees.type === "eip1559"
      ? {
          type: "eip1559" as const,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        }
      : { type: "legacy" as const, gasPrice: fees.gasPrice }),
  };
}
