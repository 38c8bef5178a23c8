import { type Address, zeroAddress } from "viem";
import { CHAIN_ID } from "../chain/chain.ts";

/** The two assets a transfer moves (docs/rules.md, transfer estimate rule 4). */
export const ASSET_KINDS = ["ETH", "STABLE"] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/** Base-unit decimals of each asset: ETH in wei, the stable asset (USDC) in its 6-decimal units. */
export const ASSET_DECIMALS: Record<AssetKind, number> = { ETH: 18, STABLE: 6 };

/**
 * `ETH:<chainId>` or `STABLE:<chainId>`: an asset:chain tag. A bare `<chainId>` omits the asset, which then
 * defaults to ETH (docs/rules.md, transfer estimate rule 4).
 */
export const ASSET_TAG_PATTERN = /^(?:(ETH|STABLE):)?([1-9][0-9]{0,9})$/;

export type TransferAsset = { kind: AssetKind; chainId: number };

/** One asset's contract on one chain: `native` is the zero address for ETH; `wrapped` is WETH (or USDC). */
export type ChainAsset = { native: Address; wrapped: Address; decimals: number };

/** Where ETH and the stable asset live on each chain transfers reach. */
export type AssetBook = ReadonlyMap<number, Partial<Record<AssetKind, ChainAsset>>>;

/**
 * Chains transfers are estimated between besides our own: Ethereum, OP Mainnet, Base and Arbitrum One, with
 * their canonical WETH and native USDC contracts (the addresses a bridge API takes).
 */
const PUBLIC_CHAINS: Record<number, Record<AssetKind, { wrapped: Address }>> = {
  1: {
    ETH: { wrapped: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2" },
    STABLE: { wrapped: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" },
  },
  10: {
    ETH: { wrapped: "0x4200000000000000000000000000000000000006" },
    STABLE: { wrapped: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85" },
  },
  8453: {
    ETH: { wrapped: "0x4200000000000000000000000000000000000006" },
    STABLE: { wrapped: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  },
  42161: {
    ETH: { wrapped: "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1" },
    STABLE: { wrapped: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831" },
  },
};

/**
 * The asset book: the public chains above, and chain 4663 from the deployment (WETH9, and the stable asset
 * when the starter list has a 6-decimal `USDC`).
 */
export function createAssetBook(local: { weth9: Address; stable?: Address }): AssetBook {
  const book = new Map<number, Partial<Record<AssetKind, ChainAsset>>>();
  for (const [chainId, assets] of Object.entries(PUBLIC_CHAINS))
    book.set(Number(chainId), {
      ETH: { native: zeroAddress, wrapped: assets.ETH.wrapped, decimals: ASSET_DECIMALS.ETH },
      STABLE: {
        native: assets.STABLE.wrapped,
        wrapped: assets.STABLE.wrapped,
        decimals: ASSET_DECIMALS.STABLE,
      },
    });
  book.set(CHAIN_ID, {
    ETH: { native: zeroAddress, wrapped: local.weth9, decimals: ASSET_DECIMALS.ETH },
    ...(local.stable
      ? { STABLE: { native: local.stable, wrapped: local.stable, decimals: ASSET_DECIMALS.STABLE } }
      : {}),
  });
  return book;
}

/** Every asset tag the book holds, for documentation and `/api/v2/config`. */
export function assetTags(book: AssetBook): string[] {
  return [...book.entries()].flatMap(([chainId, assets]) =>
    ASSET_KINDS.filter((kind) => assets[kind]).map((kind) => formatAssetTag({ kind, chainId })),
  );
}

export function parseAssetTag(tag: string): TransferAsset | undefined {
  const match = ASSET_TAG_PATTERN.exec(tag);
  if (!match) return undefined;
  return { kind: (match[1] as AssetKind | undefined) ?? "ETH", chainId: Number(match[2]) };
}

export function formatAssetTag(asset: TransferAsset): string {
  return `${asset.kind}:${asset.chainId}`;
}
