import type { Address, Hex, PublicClient, TransactionReceipt } from "viem";
import { type Abi, BaseError, decodeErrorResult } from "viem";

/** A seeding transaction as built, before anyone sends it (the devnet's sender, or a benchmark in batches). */
export type SeedTx = { to: Address; data: Hex; value?: bigint };

/**
 * Sends seeding transactions from an unlocked devnet account. One `eth_sendTransaction` plus one receipt read
 * per transaction (anvil mines it on arrival), instead of the estimate/nonce/fee round trips a wallet client
 * makes: seeding sends a few hundred transactions and cold boot time matters.
 */
export type Sender = {
  from: Address;
  send: (tx: {
    to?: Address;
    data: Hex;
    value?: bigint;
    label: string;
    abi?: Abi;
  }) => Promise<TransactionReceipt>;
  deploy: (tx: { bytecode: Hex; args?: Hex; label: string }) => Promise<Address>;
};

export class SeedError extends Error {
  override name = "SeedError";
}

/** Gas for every seeding transaction; anvil's 30M block limit leaves room for a V3 pool creation plus mints. */
const GAS = 25_000_000n;

export function createSender(client: PublicClient, from: Address): Sender {
  // Unlocked-account sends are not in viem's public RPC schema, so these requests are typed by hand.
  const request_ = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  const send: Sender["send"] = async ({ to, data, value, label, abi }) => {
    const request = {
      from,
      to,
      data,
      value: value === undefined ? undefined : `0x${value.toString(16)}`,
      gas: `0x${GAS.toString(16)}`,
    };
    const hash = (await request_({ method: "eth_sendTransaction", params: [request] })) as Hex;
    const receipt = await receiptOf(hash, label);
    if (receipt.status !== "success")
      throw new SeedError(`${label} reverted${await revertReason(client, request, abi)}`);
    return receipt;
  };
  // anvil mines on arrival, so a receipt follows within milliseconds; if not, the node refused to mine the
  // transaction, and the pool contents say why.
  const receiptOf = async (hash: Hex, label: string): Promise<TransactionReceipt> => {
    for (let attempt = 0; attempt < 250; attempt++) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, attempt < 10 ? 2 : 20));
    }
    const pool = await request_({ method: "txpool_inspect", params: [] }).catch(() => undefined);
    throw new SeedError(
      `${label}: transaction ${hash} was not mined within 5 s (txpool: ${JSON.stringify(pool)})`,
    );
  };
  return {
    from,
    send,
    deploy: async ({ bytecode, args, label }) => {
      const receipt = await send({ data: (args ? bytecode + args.slice(2) : bytecode) as Hex, label });
      if (!receipt.contractAddress) throw new SeedError(`${label}: no contract address in receipt`);
      return receipt.contractAddress;
    },
  };
}

/** Replays a reverted transaction as a call to name the error, for a readable seeding failure. */
async function revertReason(
  client: PublicClient,
  request: { to?: Address; data: Hex },
  abi?: Abi,
): Promise<string> {
  try {
    await client.request({ method: "eth_call", params: [request as never, "latest"] });
    return "";
  } catch (error) {
    const data = error instanceof BaseError ? findData(error) : undefined;
    if (data && abi) {
      try {
        const decoded = decodeErrorResult({ abi, data });
        return `: ${decoded.errorName}(${decoded.args?.join(", ") ?? ""})`;
      } catch {}
    }
    return error instanceof BaseError
      ? `: ${error.shortMessage}${data ? ` (${data.slice(0, 138)})` : ""}`
      : "";
  }
}

function findData(error: BaseError): Hex | undefined {
  const found = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as {
    data?: Hex;
  } | null;
  return found?.data;
}
