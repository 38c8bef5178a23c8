import { type Address, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { createPartnerTestApi, type PartnerTestApi } from "../../../../test/partner-api.ts";
import { devnetTokenArtifact } from "../../../contracts/artifacts/DevnetToken.ts";
import { TRANSFER_FEE_BPS } from "../../../devnet/universe.ts";

/**
 * `GET {partner_url}/tokens` on a devnet (docs/rules.md, partner token rule 1): a listed token, an unlisted
 * ERC-20, a contract that is no token, an account and the zero address, each answered as the partner token
 * lookup resource with its transfer fee simulated at the block (the fee-on-transfer token's configured tax,
 * plain tokens 0); strict query; the key gate; the echoed x-request-id.
 */
let devnet: TestDevnet;
let api: PartnerTestApi;
let unlisted: Address;

const lookup = async (query: Record<string, string>, options: { key?: string | null } = {}) => {
  const response = await api.get("/tokens", query, options);
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
};

const block = expect.stringMatching(/^[0-9]+$/);
const untaxed = { feeOnTransfer: false, bps: 0, reason: null, block };

/** Routable seeded pools holding `token`, from the manifest. */
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
  api = await createPartnerTestApi(devnet);
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

describe("GET {partner_url}/tokens", () => {
  it("describes a listed token, lowercased, with exactly the resource's fields", async () => {
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!;
    const { status, body } = await lookup({ address: usdc.address.toUpperCase().replace("0X", "0x") });
    expect(status).toBe(200);
    expect(body).toEqual({
      address: usdc.address.toLowerCase(),
      metadata: { decimals: 6, symbol: "USDC", name: "USD Coin", status: "listed" },
      pools: seededPools(usdc.address),
      transferFee: untaxed,
    });
    expect(body.pools).toBeGreaterThan(0);
  });

  it("reports the fee-on-transfer token with its configured tax", async () => {
    const taxed = devnet.manifest.tokens.find((t) => t.kind === "fee-on-transfer")!;
    const { status, body } = await lookup({ address: taxed.address });
    expect(status).toBe(200);
    expect(body.transferFee).toEqual({ feeOnTransfer: true, bps: TRANSFER_FEE_BPS, reason: null, block });
  });

  it("reads an unlisted ERC-20 on chain: metadata, and 0 pools (cannot be routed)", async () => {
    const { status, body } = await lookup({ address: unlisted });
    expect(status).toBe(200);
    expect(body).toEqual({
      address: unlisted.toLowerCase(),
      metadata: { decimals: 9, symbol: "UNL", name: "Unlisted Token", status: "onchain" },
      pools: 0,
      transferFee: untaxed,
    });
  });

  it("answers null metadata for a contract that is no token and for an account", async () => {
    for (const address of [devnet.manifest.contracts.executor, devnet.wallet(4).account!.address]) {
      const { status, body } = await lookup({ address });
      expect(status).toBe(200);
      expect(body).toEqual({
        address: address.toLowerCase(),
        metadata: null,
        pools: 0,
        transferFee: { feeOnTransfer: null, bps: null, reason: "no-token-metadata", block },
      });
    }
  });

  it("answers native ETH's fixed record for the zero address, without a lookup", async () => {
    const { status, body } = await lookup({ address: zeroAddress });
    expect(status).toBe(200);
    expect(body).toEqual({
      address: zeroAddress,
      metadata: { decimals: 18, symbol: "ETH", name: "Ether", status: "native" },
      pools: seededPools(zeroAddress),
      transferFee: { feeOnTransfer: false, bps: 0, reason: null, block: null },
    });
    expect(body.pools).toBeGreaterThan(0);
  });

  it("refuses any other parameter, a missing or malformed address, and a missing key", async () => {
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    for (const [query, path] of [
      [{ address: usdc, chainId: "4663" }, ""],
      [{}, "address"],
      [{ address: "0x1234" }, "address"],
    ] as const) {
      const { status, body } = await lookup(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error.code).toBe("INVALID_REQUEST");
      if (path) expect(body.error.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await lookup({ address: usdc }, { key: null })).status).toBe(401);
  });

  it("echoes x-request-id, or generates one", async () => {
    const usdc = devnet.manifest.tokens.find((t) => t.symbol === "USDC")!.address;
    const sent = await api.get("/tokens", { address: usdc }, { headers: { "x-request-id": "trace-42" } });
    expect(sent.headers.get("x-request-id")).toBe("trace-42");
    const generated = await api.get("/tokens", { address: usdc });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves the partner host's own OpenAPI document, with bearer security, and its reference page", async () => {
    const response = await api.app.request("/openapi.json");
    expect(response.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: the document is asserted field by field.
    const doc = (await response.json()) as any;
    expect(Object.keys(doc.paths).sort()).toEqual(["/healthz", "/quote", "/tokens"]);
    expect(doc.components.securitySchemes.PartnerBearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of ["/quote", "/tokens"]) {
      expect(doc.paths[path].get.security).toEqual([{ PartnerBearer: [] }]);
      expect(Object.keys(doc.paths[path].get.responses).sort()).toEqual([
        "200",
        "400",
        "401",
        "403",
        "429",
        "503",
      ]);
    }
    const quote = doc.paths["/quote"].get;
    expect(quote.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ["amount", "deadline", "in", "minOut", "out", "recipient", "slippageBps", "x-request-id"].sort(),
    );
    expect(quote.description).toContain("BEFORE the service fee");
    expect(doc.components.schemas.PartnerQuote.properties.error.enum).toContain("no-route");
    expect((await api.app.request("/docs")).status).toBe(200);
  });
});
