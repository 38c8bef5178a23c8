import { type Address, createPublicClient, http, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuilderTestApi, createBuilderTestApi } from "../../../../test/builder-api.ts";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { junctionChain } from "../../../chain/chain.ts";
import { devnetTokenArtifact } from "../../../contracts/artifacts/DevnetToken.ts";
import type { TokenKind } from "../../../devnet/universe.ts";
import { TRANSFER_FEE_BPS } from "../../../devnet/universe.ts";
import { createApp } from "../../create-app.ts";
import { registerTokensRoute } from "./tokens.ts";

/**
 * `GET /api/v2/builders/tokens` on a devnet: the starter list with pool counts that match the seeded
 * universe and transfer fees simulated at the block (the fee-on-transfer token with its configured tax,
 * plain tokens 0), one address of every kind (starter, native
 * ETH, an unlisted ERC-20, a contract that is no token, an account), strict queries, the gate, and an
 * unreachable node.
 */
let devnet: TestDevnet;
let api: BuilderTestApi;
let key: string;
let unlisted: Address;

const PATH = "/api/v2/builders/tokens";

type TokenBody = {
  address: string;
  metadata: { decimals: number; symbol: string; name: string; status: string } | null;
  pools: number;
  starter: boolean;
  transferFee: {
    feeOnTransfer: boolean | null;
    bps: number | null;
    reason: string | null;
    block: string | null;
  };
};

/** What the simulated transfer must find for each kind of devnet token. */
function expectedFee(kind: TokenKind): TokenBody["transferFee"] {
  const block = expect.stringMatching(/^[0-9]+$/);
  if (kind === "fee-on-transfer") return { feeOnTransfer: true, bps: TRANSFER_FEE_BPS, reason: null, block };
  // A rebasing token still at one share per unit measures like a plain one (after a rebase it is unknown,
  // src/simulation/transfer-fee.devnet.test.ts).
  return { feeOnTransfer: false, bps: 0, reason: null, block };
}
/** A plain token's simulated transfer. */
const untaxed = () => expectedFee("standard");

const get = async (query: Record<string, string> = {}, apiKey = key) => {
  const response = await api.call("GET", PATH, { key: apiKey, query });
  return { status: response.status, body: (await response.json()) as { tokens: TokenBody[] } };
};

/** Routable seeded pools holding `token`, from the manifest (V4 pools with hooks or dynamic fees excluded). */
function seededPools(token: string): number {
  const t = token.toLowerCase();
  return devnet.manifest.pools.filter((pool) => {
    if (!pool.routable) return false;
    const [a, b] = pool.kind === "v4" ? [pool.key.currency0, pool.key.currency1] : [pool.token0, pool.token1];
    return a.toLowerCase() === t || b.toLowerCase() === t;
  }).length;
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createBuilderTestApi(devnet);
  const workspace = await api.workspace();
  key = await api.key(workspace.id, ["tokens"]);
  const wallet = devnet.wallet(3);
  const hash = await wallet.deployContract({
    abi: devnetTokenArtifact.abi,
    bytecode: devnetTokenArtifact.bytecode,
    args: ["Unlisted Token", "UNL", 9, [], 0n],
    chain: wallet.chain,
    account: wallet.account!,
  });
  unlisted = (await devnet.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
});

afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

describe("GET /api/v2/builders/tokens", () => {
  it("lists the starter tokens with their metadata, routable pool counts and simulated transfer fees", async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(body.tokens).toEqual(
      devnet.manifest.tokens.map((token) => ({
        address: token.address.toLowerCase(),
        metadata: { decimals: token.decimals, symbol: token.symbol, name: token.name, status: "listed" },
        pools: seededPools(token.address),
        starter: true,
        transferFee: expectedFee(token.kind),
      })),
    );
    // Every token of the list measured at one block.
    expect(new Set(body.tokens.map((t) => t.transferFee.block)).size).toBe(1);
    expect(body.tokens.find((t) => t.metadata?.symbol === "TAX")!.transferFee).toMatchObject({
      feeOnTransfer: true,
      bps: 100,
    });
    for (const symbol of ["WETH", "USDC", "DAI", "WBTC"]) {
      expect(body.tokens.find((t) => t.metadata?.symbol === symbol)!.pools).toBeGreaterThan(0);
    }
  });

  it("describes one starter token, whatever the address's case", async () => {
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!;
    const { status, body } = await get({ address: usdc.address.toUpperCase().replace("0X", "0x") });
    expect(status).toBe(200);
    expect(body.tokens).toEqual([
      {
        address: usdc.address.toLowerCase(),
        metadata: { decimals: 6, symbol: "USDC", name: "USD Coin", status: "listed" },
        pools: seededPools(usdc.address),
        starter: true,
        transferFee: untaxed(),
      },
    ]);
  });

  it("reports the fee-on-transfer token's configured tax when asked for it alone", async () => {
    const taxed = devnet.manifest.tokens.find((t) => t.kind === "fee-on-transfer")!;
    const { status, body } = await get({ address: taxed.address });
    expect(status).toBe(200);
    expect(body.tokens[0]!.transferFee).toEqual(expectedFee("fee-on-transfer"));
    expect(body.tokens[0]!.transferFee.block).toBe(String(await devnet.publicClient.getBlockNumber()));
  });

  it("describes native ETH without a lookup, with its native V4 pools", async () => {
    const { body } = await get({ address: zeroAddress });
    expect(body.tokens).toEqual([
      {
        address: zeroAddress,
        metadata: { decimals: 18, symbol: "ETH", name: "Ether", status: "native" },
        pools: seededPools(zeroAddress),
        starter: false,
        transferFee: { feeOnTransfer: false, bps: 0, reason: null, block: null },
      },
    ]);
    expect(body.tokens[0]!.pools).toBeGreaterThan(0);
  });

  it("reads an unlisted token's metadata on chain; it has no pools", async () => {
    const { status, body } = await get({ address: unlisted });
    expect(status).toBe(200);
    expect(body.tokens).toEqual([
      {
        address: unlisted.toLowerCase(),
        metadata: { decimals: 9, symbol: "UNL", name: "Unlisted Token", status: "onchain" },
        pools: 0,
        starter: false,
        transferFee: untaxed(),
      },
    ]);
  });

  it("answers null metadata for a contract that is not a token and for an account", async () => {
    for (const address of [devnet.manifest.contracts.builderRegistry, devnet.manifest.accounts[5]!.address]) {
      const { status, body } = await get({ address });
      expect(status).toBe(200);
      expect(body.tokens).toEqual([
        {
          address: address.toLowerCase(),
          metadata: null,
          pools: 0,
          starter: false,
          transferFee: {
            feeOnTransfer: null,
            bps: null,
            reason: "no-token-metadata",
            block: expect.any(String),
          },
        },
      ]);
    }
  });

  it("is 400 for a malformed address or an unknown parameter", async () => {
    const queries: Record<string, string>[] = [
      { address: "0x1234" },
      { address: "USDC" },
      { symbol: "USDC" },
    ];
    for (const query of queries) {
      const { status, body } = await get(query);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: "INVALID_REQUEST" } });
    }
  });

  it("needs a live key with the tokens scope", async () => {
    expect((await get({}, "")).status).toBe(401);
    const workspace = await api.workspace();
    const { status, body } = await get({}, await api.key(workspace.id, ["quote", "receipts"]));
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: { code: "FORBIDDEN" } });
  });

  it("is 503 UPSTREAM_UNAVAILABLE when the node does not answer, without the node's words", async () => {
    const app = createApp((error) => {
      throw error;
    });
    const dead = createPublicClient({
      chain: junctionChain("http://127.0.0.1:9"),
      transport: http(undefined, { retryCount: 0 }),
    });
    registerTokensRoute(app, { ...api.deps, client: dead as never });
    const response = await app.request(`${PATH}?address=${unlisted}`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toEqual({
      error: {
        code: "UPSTREAM_UNAVAILABLE",
        reason: "rpc-unavailable",
        message: "the chain node did not answer",
      },
    });
  });
});
