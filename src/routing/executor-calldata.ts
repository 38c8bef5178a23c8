import { type Address, encodeFunctionData, type Hex, zeroAddress, zeroHash } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { amountInIssue } from "./limits.ts";
import { type ExecutorRoute, encodeRoute } from "./route-encoding.ts";

/** Everything one `Executor.swap` needs; amounts in raw units, address(0) for native ETH. */
export type ExecutorSwap = {
  executor: Address;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  /** The transaction reverts unless the recipient receives at least this much after fees. */
  minOut: bigint;
  recipient: Address;
  /** Unix seconds; the transaction reverts after it. */
  deadline: bigint;
  /** The service fee the quote disclosed: the executor charges at most this (and at most the policy). */
  maxRouteFeeBps: number;
  /**
   * The service fee is the pair's own (`FeePolicy.pairFee`): the calldata says so (bit 15 of
   * `maxRouteFeeBps`), and the executor reads the pair's word in its copy of the policy first, one slot fewer.
   * A wrong flag costs a read and never changes a fee.
   */
  pairFee?: boolean;
  /** The builder fee the quote disclosed: the executor charges at most this (and at most the builder's cap). */
  maxBuilderFeeBps: number;
  /** keccak256 of the builder code (`builderIdOf`); zero for none. */
  builderId?: Hex;
  quoteId?: Hex;
  keyIdHash?: Hex;
  route: ExecutorRoute;
};

/** An unsigned transaction: the service never signs or submits (docs/rules.md, service rule 1). */
export type UnsignedSwapTransaction = { to: Address; data: Hex; value: bigint; chainId: typeof CHAIN_ID };

/** Thrown for swap terms the executor would refuse before running the route. */
export class SwapTermsError extends Error {
  override name = "SwapTermsError";
}

const MAX_UINT16 = 65_535;
/** `maxRouteFeeBps` carries the fee in bits 0..14 and the pair-fee flag in bit 15. */
const MAX_ROUTE_FEE_BPS = 0x7fff;
const PAIR_FEE_FLAG = 0x8000;

/**
 * Why the executor would refuse `recipient` as a swap's recipient (the zero address, or the executor
 * itself, which would keep the output), or undefined: every surface that takes a recipient refuses these
 * as a 400 naming the field before any work (docs/rules.md, ours: swap recipient).
 */
export function recipientIssue(recipient: Address, executor: Address): string | undefined {
  if (BigInt(recipient) === 0n) return "must not be the zero address";
  if (recipient.toLowerCase() === executor.toLowerCase()) return "must not be the executor";
  return undefined;
}

/**
 * Builds the `Executor.swap` calldata and value for `swap`: `value` equals `amountIn` for native input and
 * is zero otherwise (docs/rules.md, partner quote rule 7: `tx.value`). The route is validated against the
 * swap's terms.
 */
export function buildExecutorSwap(swap: ExecutorSwap): UnsignedSwapTransaction {
  const params = swapParams(swap);
  const route = encodeRoute(swap.route, { amountIn: swap.amountIn, tokenOut: swap.tokenOut });
  const data = encodeFunctionData({ abi: executorArtifact.abi, functionName: "swap", args: [params, route] });
  return executorTransaction(swap, data);
}

/**
 * The executor's `SwapParams` for `swap`, after the checks the executor would make before anything moves
 * (distinct tokens, an amount in AMOUNT_IN, a recipient that is neither zero nor the executor, fee caps that fit
 * a uint16): a violation is a SwapTermsError, never a transaction bound to revert.
 */
export function swapParams(swap: Omit<ExecutorSwap, "route">) {
  if (swap.tokenIn.toLowerCase() === swap.tokenOut.toLowerCase())
    throw new SwapTermsError("tokenIn and tokenOut must differ");
  const amountIn = amountInIssue(swap.amountIn);
  if (amountIn) throw new SwapTermsError(`amountIn ${amountIn}`);
  if (swap.minOut < 0n) throw new SwapTermsError("minOut must not be negative");
  const recipient = recipientIssue(swap.recipient, swap.executor);
  if (recipient) throw new SwapTermsError(`the recipient ${recipient}`);
  for (const [name, bps, max] of [
    ["maxRouteFeeBps", swap.maxRouteFeeBps, MAX_ROUTE_FEE_BPS],
    ["maxBuilderFeeBps", swap.maxBuilderFeeBps, MAX_UINT16],
  ] as const)
    if (!Number.isInteger(bps) || bps < 0 || bps > max)
      throw new SwapTermsError(`${name} must be an integer between 0 and ${max}`);
  return {
    tokenIn: swap.tokenIn,
    tokenOut: swap.tokenOut,
    amountIn: swap.amountIn,
    minOut: swap.minOut,
    recipient: swap.recipient,
    deadline: swap.deadline,
    maxRouteFeeBps: swap.pairFee ? swap.maxRouteFeeBps | PAIR_FEE_FLAG : swap.maxRouteFeeBps,
    maxBuilderFeeBps: swap.maxBuilderFeeBps,
    builderId: swap.builderId ?? zeroHash,
    quoteId: swap.quoteId ?? zeroHash,
    keyIdHash: swap.keyIdHash ?? zeroHash,
  };
}

/** The transaction calling the executor with `data`: value `amountIn` for native input, else zero. */
export function executorTransaction(
  swap: Pick<ExecutorSwap, "executor" | "tokenIn" | "amountIn">,
  data: Hex,
): UnsignedSwapTransaction {
  return {
    to: swap.executor,
    data,
    value: swap.tokenIn === zeroAddress ? swap.amountIn : 0n,
    chainId: CHAIN_ID,
  };
}
