import {
  type Address,
  BaseError,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
  type StateOverride,
  slice,
  toBytes,
  zeroAddress,
} from "viem";
import { simulateBlocks } from "viem/actions";
import { balanceProbeArtifact } from "../contracts/artifacts/BalanceProbe.ts";

/**
 * Sends the probe and balance-reader calls. Any account works: the probe spends its own (the synthetic
 * caller's) balance for the transaction's value, and this sender is given just enough ETH by the override to
 * pay for gas at the shared gas price (docs/rules.md, comparison rule 12).
 */
const PROBE_SENDER: Address = "0x000000000000000000000000000000000000dEaD";
/** Where the probe's code reads balances between the calls of a simulated block; no code lives there. */
const BALANCE_READER = slice(keccak256(toBytes("junction.simulation.balance-reader")), 12) as Address;
/** The probe call's own gas limit (a swap of 3 branches of 3 hops uses well under a fifth of it). */
const PROBE_GAS = 10_000_000n;

/** What the probe pays around the transaction's call that the transaction itself would not. */
const PROBE_OVERHEAD = {
  /** The `CALL` to the warmed target (a transaction's `to` costs nothing beyond the base 21,000). */
  call: 100n,
  /** A `CALL` with value costs 9,000 and hands the callee a 2,300 stipend; a transaction's value is free. */
  value: 9_000n - 2_300n,
};
/**
 * Measuring an ERC-20 output warms the token's account (2,600 cold against 100 warm) and the recipient's
 * balance slot (2,100 against 100) before the call; the transaction pays both cold, since it writes that slot.
 */
const COLD_OUTPUT_READS = 2_500n + 2_000n;

export type MeasureRequest = {
  tx: { to: Address; data: Hex; value: bigint };
  /** The synthetic caller the transaction runs as (never a real account: the probe may replace its code). */
  caller: Address;
  /** The caller's balance and allowance fixture. */
  stateOverride: StateOverride;
  /** Where output is measured by balance change: `token` (zero address: ETH) held by `of`. */
  output?: { token: Address; of: Address };
  blockNumber: bigint;
  /**
   * The timestamp of block `blockNumber`. The transaction runs in the block after it (one number and one
   * second later), as a sent transaction will: a node left to choose may run it in a block with the quote
   * block's own number and time (anvil does), where what a contract writes once per block (a V3 pool's
   * oracle observation, when the quote block swapped through it) is already written, and the gas is low.
   */
  blockTimestamp?: bigint;
  gasPrice: bigint;
};

export type Measured = {
  /** What `output.of` received of `output.token` (0 without `output`). */
  received: bigint;
  /**
   * The gas the transaction uses: the node's own figure from `eth_simulateV1` (refunds applied, as a receipt
   * reports it) or, from a node without it, intrinsic gas and the execution measured by the probe, before
   * refunds (an upper bound, as `eth_estimateGas` is).
   */
  gasUsed: bigint;
  /** The transaction's return data. */
  result: Hex;
  /** How it was measured. */
  by: "eth_simulateV1" | "probe";
};

/** A call in a simulated block reverted: carries its revert data, as a reverted `eth_call` does. */
export class SimulatedRevertError extends BaseError {
  override name = "SimulatedRevertError";
  readonly data: Hex;
  constructor(data: Hex) {
    super("the transaction reverted in the simulated block");
    this.data = data;
  }
}

/** Nodes that answered that they have no `eth_simulateV1`: they get the probe from then on. */
const withoutSimulateV1 = new WeakSet<object>();

/**
 * Runs one complete transaction at the block as the synthetic caller in one request, with its gas measured
 * in the same execution instead of by `eth_estimateGas` (whose binary search runs the transaction a dozen
 * times or more): `eth_simulateV1` where the node has it, else one `eth_call` through the BalanceProbe
 * placed at the caller's address. Throws what the call throws; a revert carries the transaction's own
 * revert data (docs/rules.md, comparison rules 3 and 13).
 */
export async function measureCall(
  client: Pick<PublicClient, "call">,
  request: MeasureRequest,
): Promise<Measured> {
  if (!withoutSimulateV1.has(client)) {
    try {
      return await measureInSimulatedBlock(client, request);
    } catch (error) {
      if (!isUnsupportedMethod(error)) throw error;
      withoutSimulateV1.add(client);
    }
  }
  return measureWithProbe(client, request);
}

/**
 * `eth_simulateV1` on the state after `blockNumber`, with the fixture: the transaction itself (the node
 * reports its gas as a receipt would), between two balance reads when the output is measured.
 */
async function measureInSimulatedBlock(
  client: Pick<PublicClient, "call">,
  request: MeasureRequest,
): Promise<Measured> {
  const { tx, caller, output, gasPrice } = request;
  const read = output && {
    account: PROBE_SENDER,
    to: BALANCE_READER,
    data: encodeFunctionData({
      abi: balanceProbeArtifact.abi,
      functionName: "balanceOf",
      args: [output.token, output.of],
    }),
  };
  const transaction = { account: caller, to: tx.to, data: tx.data, value: tx.value, gasPrice };
  const [block] = await simulateBlocks(client as PublicClient, {
    blockNumber: request.blockNumber,
    blocks: [
      {
        blockOverrides: {
          number: request.blockNumber + 1n,
          ...(request.blockTimestamp !== undefined ? { time: request.blockTimestamp + 1n } : {}),
        },
        stateOverrides: [
          ...request.stateOverride,
          { address: BALANCE_READER, code: balanceProbeArtifact.deployedBytecode },
        ],
        calls: read ? [read, transaction, read] : [transaction],
      },
    ],
  });
  const calls = block!.calls;
  const ran = calls[read ? 1 : 0]!;
  if (ran.status !== "success") throw new SimulatedRevertError(ran.data);
  let received = 0n;
  if (read) {
    const [before, after] = [calls[0]!, calls[2]!].map((call) => {
      if (call.status !== "success") throw new SimulatedRevertError(call.data);
      return BigInt(call.data);
    });
    // An ETH output at the caller also paid the transaction's gas out of the same balance.
    const gasPaid = output.token === zeroAddress && output.of === caller ? ran.gasUsed * gasPrice : 0n;
    received = after! - before! + gasPaid;
  }
  return { received, gasUsed: ran.gasUsed, result: ran.data, by: "eth_simulateV1" };
}

/**
 * One `eth_call` to the probe's runtime placed at the caller's address: it calls the transaction's target
 * with its data and value and returns the output received, the gas spent and the return data. The gas is
 * intrinsic gas plus the measured execution, less what the probe pays that a transaction does not; refunds
 * are not subtracted.
 */
async function measureWithProbe(
  client: Pick<PublicClient, "call">,
  request: MeasureRequest,
): Promise<Measured> {
  const { tx, caller, output } = request;
  const called = await client.call({
    account: PROBE_SENDER,
    to: caller,
    data: encodeFunctionData({
      abi: balanceProbeArtifact.abi,
      functionName: "measure",
      args: [tx.to, tx.data, tx.value, output?.token ?? zeroAddress, output?.of ?? zeroAddress],
    }),
    gas: PROBE_GAS,
    gasPrice: request.gasPrice,
    blockNumber: request.blockNumber,
    stateOverride: [
      ...withCode(request.stateOverride, caller, balanceProbeArtifact.deployedBytecode),
      { address: PROBE_SENDER, balance: PROBE_GAS * request.gasPrice },
    ],
  });
  if (!called.data) throw new SimulatedRevertError("0x");
  const [received, spent, result] = decodeFunctionResult({
    abi: balanceProbeArtifact.abi,
    functionName: "measure",
    data: called.data,
  });
  let execution = spent - PROBE_OVERHEAD.call - (tx.value > 0n ? PROBE_OVERHEAD.value : 0n);
  if (output && output.token !== zeroAddress) execution += COLD_OUTPUT_READS;
  return { received, gasUsed: transactionGas(tx.data, execution), result, by: "probe" };
}

/**
 * A transaction's gas before refunds: 21,000, its calldata (4 per zero byte, 16 per other) and its
 * execution, or the EIP-7623 calldata floor (10 per token, a zero byte one token, any other four) when that
 * is more.
 */
export function transactionGas(data: Hex, execution: bigint): bigint {
  let zero = 0n;
  let other = 0n;
  for (let i = 2; i < data.length; i += 2) {
    if (data[i] === "0" && data[i + 1] === "0") zero += 1n;
    else other += 1n;
  }
  const standard = 21_000n + 4n * zero + 16n * other + execution;
  const floor = 21_000n + 10n * (zero + 4n * other);
  return standard > floor ? standard : floor;
}

/** JSON-RPC "method not found" (-32601) and "method not supported" (EIP-1474, -32004), from the code alone. */
function isUnsupportedMethod(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk((e) => {
      const code = (e as { code?: unknown }).code;
      return code === -32601 || code === -32004;
    }) !== null
  );
}

/** The fixture with `code` at `address`, merged into that address's entry when it has one. */
function withCode(stateOverride: StateOverride, address: Address, code: Hex): StateOverride {
  const own = stateOverride.find((entry) => entry.address.toLowerCase() === address.toLowerCase());
  return own
    ? stateOverride.map((entry) => (entry === own ? { ...entry, code } : entry))
    : [...stateOverride, { address, code }];
}
