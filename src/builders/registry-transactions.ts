import {
  type Address,
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  isAddress,
  type PublicClient,
  zeroAddress,
} from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { InvalidRequestError } from "../errors/junction-error.ts";
import { BUILDER_CODE_PATTERN, builderIdOf } from "./builder-code.ts";
import { BUILDER_LIMITS } from "./limits.ts";

/**
 * Unsigned BuilderRegistry transactions, for the builder's own wallet to sign: the service never signs nor
 * submits (docs/rules.md, service rule 1). `register` activates a workspace's builder ID
 * (docs/rules.md, state rule 4 and auth rule 4); the others are the later changes served under the `swap`
 * scope (docs/rules.md, ours: registry transactions).
 */
export type UnsignedRegistryTransaction = {
  to: Address;
  data: Hex;
  value: 0n;
  chainId: typeof CHAIN_ID;
};

/** One registry change, as an API or CLI request names it. Builders are named by their public code. */
export type RegistryTransactionRequest =
  | { action: "register"; code: string; recipient: string; builderFeeBps: number }
  | { action: "set-recipient"; code: string; recipient: string }
  | { action: "set-fee"; code: string; builderFeeBps: number }
  /** `pendingOwner` zero cancels a handover in progress. */
  | { action: "transfer-ownership"; code: string; pendingOwner: string }
  | { action: "accept-ownership"; code: string };

export type RegistryAction = RegistryTransactionRequest["action"];
export const REGISTRY_ACTIONS: readonly RegistryAction[] = [
  "register",
  "set-recipient",
  "set-fee",
  "transfer-ownership",
  "accept-ownership",
];

/** A request the registry would refuse for its shape alone; `field` names the input to fix. */
export class RegistryInputError extends InvalidRequestError {
  override name = "RegistryInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super([{ path: field, message }], `${field}: ${message}`);
  }
}

const abi = builderRegistryArtifact.abi;

/** `register(code, recipient, builderFeeBps)`: the sender becomes the builder's owner. */
export function registerTransaction(
  registry: Address,
  input: { code: string; recipient: string; builderFeeBps: number },
): UnsignedRegistryTransaction {
  const code = validCode(input.code);
  const recipient = payoutAddress("recipient", input.recipient);
  const bps = feeBps(input.builderFeeBps);
  return unsigned(
    registry,
    encodeFunctionData({ abi, functionName: "register", args: [code, recipient, bps] }),
  );
}

/** `setRecipient(builderId, recipient)`: the owner moves the payout wallet. */
export function setRecipientTransaction(
  registry: Address,
  input: { builderId: Hex; recipient: string },
): UnsignedRegistryTransaction {
  const recipient = payoutAddress("recipient", input.recipient);
  return unsigned(
    registry,
    encodeFunctionData({ abi, functionName: "setRecipient", args: [validId(input.builderId), recipient] }),
  );
}

/** `setBuilderFee(builderId, bps)`: the owner changes the default builder fee (at most its cap). */
export function setBuilderFeeTransaction(
  registry: Address,
  input: { builderId: Hex; builderFeeBps: number },
): UnsignedRegistryTransaction {
  const bps = feeBps(input.builderFeeBps);
  return unsigned(
    registry,
    encodeFunctionData({ abi, functionName: "setBuilderFee", args: [validId(input.builderId), bps] }),
  );
}

/** `transferOwnership(builderId, pending)`: first step of a two-step handover; zero cancels it. */
export function transferOwnershipTransaction(
  registry: Address,
  input: { builderId: Hex; pendingOwner: string },
): UnsignedRegistryTransaction {
  const pending = address("pendingOwner", input.pendingOwner);
  return unsigned(
    registry,
    encodeFunctionData({ abi, functionName: "transferOwnership", args: [validId(input.builderId), pending] }),
  );
}

/** `acceptOwnership(builderId)`: the pending owner completes the handover. */
export function acceptOwnershipTransaction(
  registry: Address,
  input: { builderId: Hex },
): UnsignedRegistryTransaction {
  return unsigned(
    registry,
    encodeFunctionData({ abi, functionName: "acceptOwnership", args: [validId(input.builderId)] }),
  );
}

/** Builds the transaction for any registry request. Throws RegistryInputError for invalid input. */
export function registryTransaction(
  registry: Address,
  request: RegistryTransactionRequest,
): UnsignedRegistryTransaction {
  if (request.action === "register") return registerTransaction(registry, request);
  const builderId = builderIdOf(validCode(request.code));
  switch (request.action) {
    case "set-recipient":
      return setRecipientTransaction(registry, { builderId, recipient: request.recipient });
    case "set-fee":
      return setBuilderFeeTransaction(registry, { builderId, builderFeeBps: request.builderFeeBps });
    case "transfer-ownership":
      return transferOwnershipTransaction(registry, { builderId, pendingOwner: request.pendingOwner });
    case "accept-ownership":
      return acceptOwnershipTransaction(registry, { builderId });
    default:
      throw new RegistryInputError("action", `must be one of ${REGISTRY_ACTIONS.join(", ")}`);
  }
}

/** The registry's custom errors (IBuilderRegistry), by name. */
export type RegistryErrorName = Extract<(typeof abi)[number], { type: "error" }>["name"];

/**
 * What the registry would do with the transaction: `ok`, or the revert decoded by the registry's ABI
 * (`Error`/`Panic` for Solidity's built-ins, `UnknownRevert` for data that is none of these).
 */
export type RegistrySimulation =
  | { ok: true }
  | { ok: false; error: RegistryErrorName | "Error" | "Panic" | "UnknownRevert"; args: readonly unknown[] };

/**
 * Runs the transaction with eth_call from `from` at `blockNumber` (default latest), so a taken code, a fee
 * above the cap or a wrong sender is reported before anyone signs. Reverts are decoded from their data
 * with the artifact's ABI, never classified by message text; an RPC failure that is not a revert
 * is thrown.
 */
export async function simulateRegistryTransaction(
  client: Pick<PublicClient, "call">,
  tx: UnsignedRegistryTransaction,
  from: Address,
  blockNumber?: bigint,
): Promise<RegistrySimulation> {
  try {
    await client.call({
      account: from,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      ...(blockNumber === undefined ? { blockTag: "latest" as const } : { blockNumber }),
    });
    return { ok: true };
  } catch (error) {
    const data = revertData(error);
    if (data === undefined) throw error;
    try {
      const decoded = decodeErrorResult({ abi, data });
      return { ok: false, error: decoded.errorName as RegistryErrorName, args: decoded.args ?? [] };
    } catch {
      return { ok: false, error: "UnknownRevert", args: [] };
    }
  }
}

/** The revert data a node attached to a failed call (JSON-RPC error `data`), wherever viem wrapped it. */
function revertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const withData = error.walk((e) => typeof e === "object" && e !== null && "data" in e) as {
    data?: unknown;
  } | null;
  const data = withData?.data;
  const hex = typeof data === "object" && data !== null ? (data as { data?: unknown }).data : data;
  return typeof hex === "string" && /^0x([0-9a-fA-F]{2})*$/.test(hex) ? (hex as Hex) : undefined;
}

function unsigned(to: Address, data: Hex): UnsignedRegistryTransaction {
  return { to, data, value: 0n, chainId: CHAIN_ID };
}

function validCode(code: string): string {
  if (typeof code !== "string" || !BUILDER_CODE_PATTERN.test(code))
    throw new RegistryInputError("code", `must match ${BUILDER_CODE_PATTERN.source}`);
  return code;
}

function validId(builderId: Hex): Hex {
  if (typeof builderId !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(builderId))
    throw new RegistryInputError("builderId", "must be a 0x-prefixed 32-byte hex id");
  return builderId;
}

function address(field: string, value: string): Address {
  // Mixed case must carry a valid EIP-55 checksum: a mistyped payout wallet is caught before signing.
  if (typeof value !== "string" || !isAddress(value, { strict: true }))
    throw new RegistryInputError(
      field,
      "must be a 0x-prefixed 20-byte address (EIP-55 checksum if mixed case)",
    );
  return value;
}

/** The registry reverts `ZeroAddress` for a zero payout wallet; say so before anyone signs. */
function payoutAddress(field: string, value: string): Address {
  const parsed = address(field, value);
  if (parsed.toLowerCase() === zeroAddress)
    throw new RegistryInputError(field, "must not be the zero address");
  return parsed;
}

/**
 * docs/rules.md, limits: builderFeeBps 0 to 50 (the builder's own cap, possibly lower, is checked on chain).
 */
function feeBps(value: number): number {
  const { min, max } = BUILDER_LIMITS.builderFeeBps;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RegistryInputError("builderFeeBps", `must be an integer from ${min} to ${max}`);
  return value;
}
