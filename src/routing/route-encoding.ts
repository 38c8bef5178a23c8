import { type Address, getAddress, type Hex, isAddress, isHex, maxUint128 } from "viem";
import { SEARCH_LIMITS } from "./limits.ts";

/**
 * The executor's route encoding, version 1 (`contracts/ROUTE_ENCODING.md`, read on chain by
 * `RouteCodec.sol`): branches of hops that name only each hop's output currency and pool parameters. The
 * executor derives every pool itself, so a route can never point it at a contract of the caller's choosing.
 */
export const ROUTE_VERSION = 1;

/** One hop: swap the whole input into `currencyOut` (address(0) is native ETH). */
export type ExecutorHop =
  | { kind: "v2"; currencyOut: Address }
  | { kind: "v3"; currencyOut: Address; fee: number }
  | { kind: "v4"; currencyOut: Address; fee: number; tickSpacing: number };

/** A branch: `amountIn` of the swap's input token through 1 to 3 hops, ending in its output token. */
export type ExecutorBranch = { amountIn: bigint; hops: readonly ExecutorHop[] };

/** A route: 1 to 3 branches whose amounts add up to the swap's input (docs/rules.md, comparison rule 6). */
export type ExecutorRoute = { branches: readonly ExecutorBranch[] };

/** What the route must agree with: the swap's exact input and its output token. */
export type RouteTerms = { amountIn: bigint; tokenOut: Address };

/** A route that the executor would reject, or bytes that are not a version-1 route. */
export class RouteEncodingError extends Error {
  override name = "RouteEncodingError";
}

const KIND_BYTE = { v2: 1, v3: 2, v4: 3 } as const;
const KIND_OF_BYTE: Record<number, ExecutorHop["kind"]> = { 1: "v2", 2: "v3", 3: "v4" };
const MAX_UINT24 = 2 ** 24 - 1;
/** v4-core: a static LP fee is at most 100% (1,000,000 pips); the dynamic-fee flag 0x800000 is above it. */
const MAX_V4_FEE = 1_000_000;
const MAX_V4_TICK_SPACING = 32_767;

/**
 * Encodes a route for `Executor.swap`, checking everything the executor checks before it moves a token.
 * With `terms`, the branches must add up to `terms.amountIn` and each must end in `terms.tokenOut`.
 */
export function encodeRoute(route: ExecutorRoute, terms?: RouteTerms): Hex {
  checkRoute(route, terms);
  let hex = byte(ROUTE_VERSION) + byte(route.branches.length);
  for (const branch of route.branches) {
    hex += branch.amountIn.toString(16).padStart(32, "0") + byte(branch.hops.length);
    for (const hop of branch.hops) {
      hex += byte(KIND_BYTE[hop.kind]) + hop.currencyOut.slice(2).toLowerCase();
      if (hop.kind !== "v2") hex += hop.fee.toString(16).padStart(6, "0");
      if (hop.kind === "v4") hex += (hop.tickSpacing & 0xffffff).toString(16).padStart(6, "0");
    }
  }
  return `0x${hex}`;
}

/** Decodes a version-1 route (the inverse of `encodeRoute`); throws `RouteEncodingError` on any defect. */
export function decodeRoute(encoded: Hex, terms?: RouteTerms): ExecutorRoute {
  if (!isHex(encoded, { strict: true }) || encoded.length % 2 !== 0)
    throw new RouteEncodingError("a route is an even-length 0x-prefixed hex string");
  const bytes = Buffer.from(encoded.slice(2), "hex");
  let offset = 0;
  const take = (n: number, what: string): Buffer => {
    if (offset + n > bytes.length)
      throw new RouteEncodingError(`route truncated: ${what} needs ${n} bytes at offset ${offset}`);
    const slice = bytes.subarray(offset, offset + n);
    offset += n;
    return slice;
  };
  const version = take(1, "version")[0]!;
  if (version !== ROUTE_VERSION) throw new RouteEncodingError(`unsupported route version ${version}`);
  const branchCount = take(1, "branch count")[0]!;
  const branches: ExecutorBranch[] = [];
  for (let b = 0; b < branchCount; b++) {
    const amountIn = BigInt(`0x${take(16, `branch ${b} amountIn`).toString("hex")}`);
    const hopCount = take(1, `branch ${b} hop count`)[0]!;
    const hops: ExecutorHop[] = [];
    for (let h = 0; h < hopCount; h++) {
      const kindByte = take(1, `branch ${b} hop ${h} kind`)[0]!;
      const kind = KIND_OF_BYTE[kindByte];
      if (!kind) throw new RouteEncodingError(`branch ${b} hop ${h}: unknown hop kind ${kindByte}`);
      const currencyOut = getAddress(`0x${take(20, `branch ${b} hop ${h} currency`).toString("hex")}`);
      if (kind === "v2") {
        hops.push({ kind, currencyOut });
        continue;
      }
      const fee = take(3, `branch ${b} hop ${h} fee`).readUIntBE(0, 3);
      if (kind === "v3") hops.push({ kind, currencyOut, fee });
      else
        hops.push({
          kind,
          currencyOut,
          fee,
          tickSpacing: take(3, `branch ${b} hop ${h} tick spacing`).readIntBE(0, 3),
        });
    }
    branches.push({ amountIn, hops });
  }
  if (offset !== bytes.length)
    throw new RouteEncodingError(`route has ${bytes.length - offset} trailing bytes after its last branch`);
  const route = { branches };
  checkRoute(route, terms);
  return route;
}

/** The executor's structural rules (RouteCodec.validate), with messages that name the offending part. */
function checkRoute(route: ExecutorRoute, terms: RouteTerms | undefined): void {
  const { branches } = route;
  if (branches.length < 1 || branches.length > SEARCH_LIMITS.maxSplitBranches)
    throw new RouteEncodingError(
      `a route has 1 to ${SEARCH_LIMITS.maxSplitBranches} branches, not ${branches.length}`,
    );
  let sum = 0n;
  branches.forEach((branch, b) => {
    if (branch.amountIn <= 0n || branch.amountIn > maxUint128)
      throw new RouteEncodingError(`branch ${b}: amountIn must be between 1 and 2^128 - 1`);
    sum += branch.amountIn;
    if (branch.hops.length < 1 || branch.hops.length > SEARCH_LIMITS.maxHops)
      throw new RouteEncodingError(
        `branch ${b}: a branch has 1 to ${SEARCH_LIMITS.maxHops} hops, not ${branch.hops.length}`,
      );
    for (const [h, hop] of branch.hops.entries()) checkHop(hop, `branch ${b} hop ${h}`);
    const last = branch.hops[branch.hops.length - 1]!;
    if (terms && last.currencyOut.toLowerCase() !== terms.tokenOut.toLowerCase())
      throw new RouteEncodingError(
        `branch ${b} ends in ${last.currencyOut}, not the swap's output token ${terms.tokenOut}`,
      );
  });
  if (terms && sum !== terms.amountIn)
    throw new RouteEncodingError(
      `branch amounts add up to ${sum}, not the swap's amountIn ${terms.amountIn}`,
    );
}

function checkHop(hop: ExecutorHop, where: string): void {
  if (!(hop.kind in KIND_BYTE))
    throw new RouteEncodingError(`${where}: unknown hop kind ${String(hop.kind)}`);
  if (!isAddress(hop.currencyOut, { strict: false }))
    throw new RouteEncodingError(`${where}: currencyOut ${String(hop.currencyOut)} is not an address`);
  if (hop.kind === "v2") return;
  if (!Number.isInteger(hop.fee) || hop.fee < 0 || hop.fee > MAX_UINT24)
    throw new RouteEncodingError(`${where}: fee ${hop.fee} is not a uint24`);
  if (hop.kind === "v3") return;
  if (hop.fee > MAX_V4_FEE)
    throw new RouteEncodingError(
      `${where}: V4 fee ${hop.fee} is not a static fee (at most ${MAX_V4_FEE}; dynamic fees are excluded)`,
    );
  if (!Number.isInteger(hop.tickSpacing) || hop.tickSpacing < 1 || hop.tickSpacing > MAX_V4_TICK_SPACING)
    throw new RouteEncodingError(
      `${where}: V4 tick spacing ${hop.tickSpacing} is outside 1..${MAX_V4_TICK_SPACING}`,
    );
}

function byte(value: number): string {
  return value.toString(16).padStart(2, "0");
}
