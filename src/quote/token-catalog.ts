import { type Address, erc20Abi, type Hex, hexToBytes, type PublicClient, parseAbi, zeroAddress } from "viem";
import { readMany } from "../chain/read-many.ts";
import type { Token } from "../config/deployment.ts";
import { isRoutable } from "../liquidity/pool-index/pool.ts";
import type { PoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { type TransferFee, type TransferFeeMeter, transferProbeAmount } from "../simulation/transfer-fee.ts";

/**
 * Where a token's metadata comes from: `listed` from the deployment's starter list (reviewed by the
 * operator), `onchain` read from the token contract's ERC-20 views (unreviewed: any contract can claim any
 * name), `native` for ETH (18 decimals, not looked up).
 */
export type TokenMetadataStatus = "listed" | "onchain" | "native";

/**
 * The metadata object of a token record (docs/rules.md, token rule 2), shared by the builder and partner
 * token endpoints.
 */
export type TokenMetadata = { decimals: number; symbol: string; name: string; status: TokenMetadataStatus };

export type TokenRecord = {
  /** Lowercase. */
  address: Address;
  /** Null when the address has no readable `decimals`, `symbol` and `name` (no contract, not an ERC-20). */
  metadata: TokenMetadata | null;
  /** Routable indexed pools holding the token (hooked and dynamic-fee V4 pools excluded); 0: not routable. */
  pools: number;
  /** Whether the token is on the deployment's starter list. */
  starter: boolean;
  /** Its fee on transfer, simulated at the latest block (docs/rules.md, token rule 4). */
  transferFee: TransferFee;
};

export type TokenCatalogDeps = {
  client: Pick<PublicClient, "getBlockNumber" | "multicall">;
  /** The starter list (deployment `tokens`). */
  tokens: readonly Token[];
  index: Pick<PoolIndex, "poolsOf">;
  /** Simulates transfers to measure fees on transfer (shared by the service: balance slots are remembered). */
  transferFees: TransferFeeMeter;
};

const NATIVE: TokenMetadata = { decimals: 18, symbol: "ETH", name: "Ether", status: "native" };
/** Older tokens (MKR-style) return `bytes32` for symbol and name. */
const bytes32Abi = parseAbi([
  "function symbol() view returns (bytes32)",
  "function name() view returns (bytes32)",
]);
const MAX_TEXT = 128;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

const lower = (address: string) => address.toLowerCase() as Address;

/**
 * The starter list as token records: metadata from the list, pool counts from the index, and every token's
 * fee on transfer simulated at the latest block in one `eth_call`.
 */
export async function starterTokens(deps: TokenCatalogDeps): Promise<TokenRecord[]> {
  const block = await deps.client.getBlockNumber();
  const fees = await deps.transferFees(
    deps.tokens.map((token) => ({
      token: lower(token.address),
      amount: transferProbeAmount(token.decimals),
    })),
    block,
  );
  return deps.tokens.map((token, i) => listedRecord(token, deps.index, fees[i]!));
}

/**
 * One token's record: a starter token from the list, native ETH (the zero address) without a lookup, any
 * other address from its ERC-20 views read on chain at the latest block in one `eth_call`; then, for a
 * token, its fee on transfer simulated at that block in one more.
 */
export async function lookupToken(deps: TokenCatalogDeps, address: Address): Promise<TokenRecord> {
  const token = lower(address);
  const pools = poolCount(deps.index, token);
  if (token === zeroAddress)
    return { address: token, metadata: NATIVE, pools, starter: false, transferFee: { status: "native" } };
  const block = await deps.client.getBlockNumber();
  const listed = deps.tokens.find((t) => lower(t.address) === token);
  const metadata = listed ? listedMetadata(listed) : await readTokenMetadata(deps.client, token, block);
  const transferFee: TransferFee = metadata
    ? (await deps.transferFees([{ token, amount: transferProbeAmount(metadata.decimals) }], block))[0]!
    : { status: "unknown", reason: "no-token-metadata", blockNumber: block };
  return { address: token, metadata, pools, starter: listed !== undefined, transferFee };
}

/**
 * Reads `decimals`, `symbol` and `name` at `block` (default: the latest) in one `eth_call` (deployless
 * multicall), accepting `bytes32` symbol and name. Null when any of the three cannot be read; RPC failures
 * throw.
 */
export async function readTokenMetadata(
  client: TokenCatalogDeps["client"],
  token: Address,
  block?: bigint,
): Promise<TokenMetadata | null> {
  block ??= await client.getBlockNumber();
  const [decimals, symbol, name, symbol32, name32] = await readMany(
    client,
    [
      { address: token, abi: erc20Abi, functionName: "decimals" },
      { address: token, abi: erc20Abi, functionName: "symbol" },
      { address: token, abi: erc20Abi, functionName: "name" },
      { address: token, abi: bytes32Abi, functionName: "symbol" },
      { address: token, abi: bytes32Abi, functionName: "name" },
    ],
    block,
  );
  if (decimals.status === "failure") return null;
  const symbolText = text(symbol, symbol32);
  const nameText = text(name, name32);
  if (symbolText === null || nameText === null) return null;
  return { decimals: decimals.result, symbol: symbolText, name: nameText, status: "onchain" };
}

type Read<T> = { status: "success"; result: T } | { status: "failure" };

/** A string result, else a `bytes32` one; trimmed of NULs and capped, so a hostile token cannot bloat a response. */
function text(asString: Read<string>, asBytes32: Read<Hex>): string | null {
  let value: string | null = null;
  if (asString.status === "success") value = asString.result;
  else if (asBytes32.status === "success") value = bytes32Text(asBytes32.result);
  if (value === null) return null;
  const trimmed = value.replaceAll("\u0000", "").trim();
  return trimmed.length > 0 ? trimmed.slice(0, MAX_TEXT) : null;
}

function bytes32Text(value: Hex): string | null {
  try {
    return UTF8.decode(hexToBytes(value));
  } catch {
    // Not UTF-8 text (the decoder is fatal): the token has no usable symbol or name.
    return null;
  }
}

function listedRecord(
  token: Token,
  index: Pick<PoolIndex, "poolsOf">,
  transferFee: TransferFee,
): TokenRecord {
  const address = lower(token.address);
  return {
    address,
    metadata: listedMetadata(token),
    pools: poolCount(index, address),
    starter: true,
    transferFee,
  };
}

const listedMetadata = (token: Token): TokenMetadata => ({
  decimals: token.decimals,
  symbol: token.symbol,
  name: token.name,
  status: "listed",
});

function poolCount(index: Pick<PoolIndex, "poolsOf">, token: Address): number {
  return index.poolsOf(token).filter(isRoutable).length;
}
