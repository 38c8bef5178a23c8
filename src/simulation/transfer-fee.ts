import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
  type StateOverride,
  slice,
  toBytes,
  toHex,
  zeroAddress,
} from "viem";
import { isTransientRpcError } from "../chain/rpc-errors.ts";
import { transferFeeProbeArtifact } from "../contracts/artifacts/TransferFeeProbe.ts";
import { detectBalanceSlot } from "./storage-slot.ts";
import { SYNTHETIC_CALLER } from "./synthetic-caller.ts";

/**
 * Why a token's transfer fee is unknown (docs/rules.md, token rule 4), a closed list:
 * - `no-token-metadata`: the address is not a readable ERC-20 (no decimals, symbol or name), so nothing is sent;
 * - `balance-slot-not-found`: no single storage slot holds a balance (rebasing shares), so the synthetic
 *   holder cannot be funded without replacing the token's code;
 * - `transfer-reverted`, `transfer-refused`: the simulated transfer reverted, or returned false;
 * - `nothing-moved`: it succeeded but the holder's balance did not go down;
 * - `balances-inconsistent`: the recipient received more than left the holder (reflections, rebases);
 * - `simulation-unsupported`: the node refused the simulating call itself (state overrides unsupported).
 */
export const TRANSFER_FEE_UNKNOWN_REASONS = [
  "no-token-metadata",
  "balance-slot-not-found",
  "transfer-reverted",
  "transfer-refused",
  "nothing-moved",
  "balances-inconsistent",
  "simulation-unsupported",
] as const;

export type TransferFeeUnknownReason = (typeof TRANSFER_FEE_UNKNOWN_REASONS)[number];

/**
 * A token's fee on transfer as simulated at a block: `bps` is the share of what left the sender that did
 * not reach the recipient, rounded up, so any shortfall at all is at least 1. Native ETH cannot take one.
 */
export type TransferFee =
  | { status: "measured"; bps: number; sent: bigint; received: bigint; blockNumber: bigint }
  | { status: "native" }
  | { status: "unknown"; reason: TransferFeeUnknownReason; blockNumber: bigint | null };

/** One token to measure, and how much of it to send (see {@link transferProbeAmount}). */
export type TransferFeeQuery = { token: Address; amount: bigint };

/**
 * The synthetic holder the probe's code is placed at and funded by override when the meter has no fixtures
 * to take learned slots from (with them it is the synthetic caller): `keccak256("junction.simulation
 * .transfer-fee-holder")[12:]`, and the fresh recipient, `keccak256("junction.simulation.transfer-fee
 * -recipient")[12:]`: addresses with no code and no key.
 */
export const TRANSFER_FEE_HOLDER = slice(
  keccak256(toBytes("junction.simulation.transfer-fee-holder")),
  12,
) as Address;
export const TRANSFER_FEE_RECIPIENT = slice(
  keccak256(toBytes("junction.simulation.transfer-fee-recipient")),
  12,
) as Address;

/**
 * The amount a lookup sends: one whole token, and never fewer than 10,000 base units, so a fee of 1 bps
 * or more shows however the token rounds.
 */
export function transferProbeAmount(decimals: number): bigint {
  return 10n ** BigInt(Math.max(decimals, 4));
}

export type TransferFeeMeter = (
  queries: readonly TransferFeeQuery[],
  blockNumber: bigint,
) => Promise<TransferFee[]>;

/**
 * Measures transfer fees by simulation (docs/rules.md, token rule 4): the synthetic holder is given each
 * token's `amount` by overriding the token's balance slot (detected once per token and remembered, as the
 * fixtures do), the TransferFeeProbe's code is placed at the holder, and one `eth_call` at the block sends
 * every token to a fresh recipient and reads what left and what arrived. Real token code is never replaced.
 * A transient node failure throws (the caller answers 503); anything else unmeasurable is `unknown` with
 * its reason, never a guess.
 *
 * Given the fixtures (`knownBalanceSlot`), the holder is the synthetic caller, whose layout of every indexed
 * token the service learns in the background: a quote that must explain a failure then sends one call, not
 * a detection first (two more round trips on a token's first explanation).
 */
export function createTransferFeeMeter(
  client: Pick<PublicClient, "createAccessList" | "call">,
  learned?: { knownBalanceSlot: (token: Address) => Promise<Hex | undefined> | undefined },
): TransferFeeMeter {
  const holder = learned ? SYNTHETIC_CALLER : TRANSFER_FEE_HOLDER;
  const slots = new Map<string, Promise<Hex | undefined>>();
  const balanceSlot = (token: Address, blockNumber: bigint) => {
    const key = token.toLowerCase();
    let found = slots.get(key);
    if (!found) {
      found = detectBalanceSlot(client, token, holder, blockNumber);
      // A failed detection (RPC trouble) is not remembered: the next lookup tries again.
      found.catch(() => slots.delete(key));
      slots.set(key, found);
    }
    return found;
  };

  return async function measure(queries, blockNumber) {
    const found = await Promise.all(
      queries.map(async (q) => {
        if (q.token === zeroAddress) return undefined;
        return (await learned?.knownBalanceSlot(q.token)) ?? balanceSlot(q.token, blockNumber);
      }),
    );
    const fees: (TransferFee | undefined)[] = queries.map((q, i) => {
      if (q.token === zeroAddress) return { status: "native" };
      return found[i] ? undefined : { status: "unknown", reason: "balance-slot-not-found", blockNumber };
    });
    const sent = queries.flatMap((q, i) => (fees[i] ? [] : [{ ...q, slot: found[i]! }]));
    if (sent.length === 0) return fees as TransferFee[];
    const measured = await sendThroughProbe(client, holder, sent, blockNumber);
    return fees.map((fee) => fee ?? measured.shift()!);
  };
}

/** The one `eth_call`: every token sent by the probe at the holder, each outcome read into a fee. */
async function sendThroughProbe(
  client: Pick<PublicClient, "call">,
  holder: Address,
  sent: readonly (TransferFeeQuery & { slot: Hex })[],
  blockNumber: bigint,
): Promise<TransferFee[]> {
  // One override per token, holding every amount it sends (a token may be asked for twice).
  const funded = new Map<string, { address: Address; slot: Hex; total: bigint }>();
  for (const { token, amount, slot } of sent) {
    const key = token.toLowerCase();
    const entry = funded.get(key) ?? { address: token, slot, total: 0n };
    funded.set(key, { ...entry, total: entry.total + amount });
  }
  const stateOverride: StateOverride = [
    { address: holder, code: transferFeeProbeArtifact.deployedBytecode },
    ...[...funded.values()].map(({ address, slot, total }) => ({
      address,
      stateDiff: [{ slot, value: toHex(total, { size: 32 }) }],
    })),
  ];
  let data: Hex | undefined;
  try {
    ({ data } = await client.call({
      to: holder,
      data: encodeFunctionData({
        abi: transferFeeProbeArtifact.abi,
        functionName: "measure",
        args: [sent.map((q) => q.token), sent.map((q) => q.amount), TRANSFER_FEE_RECIPIENT],
      }),
      blockNumber,
      stateOverride,
    }));
  } catch (error) {
    if (isTransientRpcError(error)) throw error;
    data = undefined;
  }
  if (!data) return sent.map(() => ({ status: "unknown", reason: "simulation-unsupported", blockNumber }));
  const [outcomes, spent, received] = decodeFunctionResult({
    abi: transferFeeProbeArtifact.abi,
    functionName: "measure",
    data,
  });
  return sent.map((_, i) => feeOf(outcomes[i]!, spent[i]!, received[i]!, blockNumber));
}

/** One token's outcome as a fee: bps of what left the holder that did not arrive, rounded up. */
function feeOf(outcome: number, spent: bigint, received: bigint, blockNumber: bigint): TransferFee {
  if (outcome === 1) return { status: "unknown", reason: "transfer-reverted", blockNumber };
  if (outcome === 2) return { status: "unknown", reason: "transfer-refused", blockNumber };
  if (spent === 0n) return { status: "unknown", reason: "nothing-moved", blockNumber };
  if (received > spent) return { status: "unknown", reason: "balances-inconsistent", blockNumber };
  const bps = Number(((spent - received) * 10_000n + spent - 1n) / spent);
  return { status: "measured", bps, sent: spent, received, blockNumber };
}
