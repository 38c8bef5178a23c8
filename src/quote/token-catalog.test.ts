import { type Address, HttpRequestError, stringToHex, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { Token } from "../config/deployment.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { TransferFee, TransferFeeQuery } from "../simulation/transfer-fee.ts";
import { lookupToken, readTokenMetadata, starterTokens } from "./token-catalog.ts";

/**
 * Token records against a scripted node and index: starter metadata comes from the list, other addresses
 * read their ERC-20 views in one multicall (string or bytes32), pool counts leave out pools routing
 * excludes, and transfer fees are asked of the meter in one batch at the block read. The real devnet tokens
 * (and their simulated transfer fees) are read in src/api/routes/builders/tokens.devnet.test.ts.
 */
const USDC = "0x0DCd1Bf9A1b36cE34237eEaFef220932846BCD82" as Address;
const OTHER = `0x${"12".repeat(20)}` as Address;
const WETH = `0x${"ee".repeat(20)}` as Address;
const TOKENS: Token[] = [{ address: USDC, symbol: "USDC", name: "USD Coin", decimals: 6, kind: "standard" }];

const discovery = { block: 1n, blockHash: `0x${"0".repeat(64)}` as const, via: "event" as const };
const v2 = (token0: Address, token1: Address): IndexedPool => ({
  kind: "v2",
  address: `0x${"99".repeat(20)}`,
  token0,
  token1,
  fee: 3000,
  discovery,
});
const hooked = (token0: Address, token1: Address): IndexedPool => ({
  kind: "v4",
  poolId: `0x${"77".repeat(32)}`,
  key: { currency0: token0, currency1: token1, fee: 3000, tickSpacing: 60, hooks: OTHER },
  token0,
  token1,
  fee: 3000,
  tickSpacing: 60,
  discovery,
  excluded: "hooks",
});
const POOLS = [
  v2(USDC.toLowerCase() as Address, WETH),
  v2(zeroAddress, WETH),
  hooked(OTHER, WETH),
  v2(OTHER, WETH),
];
const index = {
  poolsOf: (token: Address) =>
    POOLS.filter((p) => [p.token0, p.token1].includes(token.toLowerCase() as Address)),
};

type Outcome = { status: "success"; result: unknown } | { status: "failure"; error: Error };
const ok = (result: unknown): Outcome => ({ status: "success", result });
const failed: Outcome = { status: "failure", error: new Error("reverted") };

/** A node answering the five metadata reads (decimals, symbol, name, bytes32 symbol, bytes32 name). */
function client(outcomes: Outcome[]) {
  const calls: unknown[] = [];
  return {
    calls,
    client: {
      getBlockNumber: async () => 9n,
      multicall: async (args: { blockNumber: bigint }) => {
        calls.push(args.blockNumber);
        return outcomes;
      },
    } as never,
  };
}

/** A transfer fee meter that answers 0 bps for every token and remembers what it was asked. */
function meter() {
  const asked: { queries: readonly TransferFeeQuery[]; block: bigint }[] = [];
  return {
    asked,
    transferFees: async (queries: readonly TransferFeeQuery[], block: bigint): Promise<TransferFee[]> => {
      asked.push({ queries, block });
      return queries.map((q) => ({
        status: "measured",
        bps: 0,
        sent: q.amount,
        received: q.amount,
        blockNumber: block,
      }));
    },
  };
}
const measuredAt9 = { status: "measured", bps: 0, blockNumber: 9n };

describe("starterTokens", () => {
  it("lists the starter tokens lowercased with their list metadata, routable pool counts and transfer fees", async () => {
    const fees = meter();
    expect(await starterTokens({ client: client([]).client, tokens: TOKENS, index, ...fees })).toEqual([
      {
        address: USDC.toLowerCase(),
        metadata: { decimals: 6, symbol: "USDC", name: "USD Coin", status: "listed" },
        pools: 1,
        starter: true,
        transferFee: expect.objectContaining(measuredAt9),
      },
    ]);
    // One batch for the whole list, one whole token each.
    expect(fees.asked).toEqual([{ queries: [{ token: USDC.toLowerCase(), amount: 10n ** 6n }], block: 9n }]);
  });
});

describe("lookupToken", () => {
  it("answers a starter token (any case) from the list, without reading the chain", async () => {
    const node = client([]);
    const record = await lookupToken(
      { client: node.client, tokens: TOKENS, index, ...meter() },
      USDC.toLowerCase() as Address,
    );
    expect(record).toMatchObject({
      address: USDC.toLowerCase(),
      starter: true,
      metadata: { status: "listed" },
      transferFee: measuredAt9,
    });
    expect(node.calls).toEqual([]);
  });

  it("answers native ETH without a lookup", async () => {
    const node = client([]);
    const fees = meter();
    expect(await lookupToken({ client: node.client, tokens: TOKENS, index, ...fees }, zeroAddress)).toEqual({
      address: zeroAddress,
      metadata: { decimals: 18, symbol: "ETH", name: "Ether", status: "native" },
      pools: 1,
      starter: false,
      transferFee: { status: "native" },
    });
    expect(node.calls).toEqual([]);
    expect(fees.asked).toEqual([]);
  });

  it("reads any other token on chain, counting only routable pools", async () => {
    const node = client([ok(18), ok("Other"), ok("Other Token"), ok("0x"), ok("0x")]);
    const fees = meter();
    expect(await lookupToken({ client: node.client, tokens: TOKENS, index, ...fees }, OTHER)).toEqual({
      address: OTHER,
      metadata: { decimals: 18, symbol: "Other", name: "Other Token", status: "onchain" },
      pools: 1,
      starter: false,
      transferFee: expect.objectContaining(measuredAt9),
    });
    expect(node.calls).toEqual([9n]);
    expect(fees.asked).toEqual([{ queries: [{ token: OTHER, amount: 10n ** 18n }], block: 9n }]);
  });

  it("does not simulate a transfer of an address without token metadata, and says why", async () => {
    const node = client([failed, failed, failed, failed, failed]);
    const fees = meter();
    expect(await lookupToken({ client: node.client, tokens: TOKENS, index, ...fees }, OTHER)).toMatchObject({
      metadata: null,
      transferFee: { status: "unknown", reason: "no-token-metadata", blockNumber: 9n },
    });
    expect(fees.asked).toEqual([]);
  });
});

describe("readTokenMetadata", () => {
  const bytes32 = (text: string) => stringToHex(text, { size: 32 });

  it("falls back to bytes32 symbol and name", async () => {
    const node = client([ok(18), failed, failed, ok(bytes32("MKR")), ok(bytes32("Maker"))]);
    expect(await readTokenMetadata(node.client, OTHER)).toEqual({
      decimals: 18,
      symbol: "MKR",
      name: "Maker",
      status: "onchain",
    });
  });

  it("is null without decimals, symbol or name, or with non-text bytes32", async () => {
    expect(
      await readTokenMetadata(client([failed, ok("A"), ok("A"), failed, failed]).client, OTHER),
    ).toBeNull();
    expect(
      await readTokenMetadata(client([ok(6), failed, ok("A"), failed, failed]).client, OTHER),
    ).toBeNull();
    expect(
      await readTokenMetadata(client([ok(6), ok(""), ok("A"), failed, failed]).client, OTHER),
    ).toBeNull();
    const notText = `0x${"ff".repeat(32)}` as const;
    expect(
      await readTokenMetadata(client([ok(6), failed, failed, ok(notText), ok(notText)]).client, OTHER),
    ).toBeNull();
  });

  it("caps a hostile name's length", async () => {
    const node = client([ok(6), ok("S"), ok("n".repeat(10_000)), failed, failed]);
    expect((await readTokenMetadata(node.client, OTHER))?.name).toHaveLength(128);
  });

  it("passes node failures through", async () => {
    const down = new HttpRequestError({ url: "http://node", status: 502 });
    const failing = {
      getBlockNumber: async () => {
        throw down;
      },
      multicall: async () => [],
    } as never;
    await expect(readTokenMetadata(failing, OTHER)).rejects.toBe(down);
  });
});
