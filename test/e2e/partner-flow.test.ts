import { createPublicClient, createWalletClient, type Hex, http, parseEther, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_ID, junctionChain } from "../../src/chain/chain.ts";
import { erc20Abi } from "../../src/contracts/abis/ERC20.ts";
import type { Manifest } from "../../src/devnet/manifest.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/**
 * The partner API as an integrator meets it, black-box against `junction start`, with the demo partner keys
 * the manifest lists: token lookup, a quote-only key refused the transaction parameters, and a swap key's
 * transaction sent with viem delivering exactly swap.netOut. (Every 400, ERC-20 and native legs, and the
 * fee-on-transfer and rebasing tokens are covered in-process: src/api/routes/partner/*.devnet.test.ts.)
 */
const PAYER = 4;
const RECIPIENT = 8;
let service: SpawnedService;
let manifest: Manifest;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;
const get = async (
  path: string,
  query: Record<string, string>,
  key?: string,
  headers: Record<string, string> = {},
) => {
  const response = await fetch(`${service.partnerUrl}${path}?${new URLSearchParams(query)}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
  const text = await response.text();
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Json };
};

beforeAll(async () => {
  service = await spawnService();
  manifest = service.manifest();
}, 120_000);
afterAll(() => service?.kill());

describe("partner API end to end", () => {
  const usdc = () => manifest.tokens.find((t) => t.symbol === "USDC")!.address.toLowerCase();

  it("looks a token up with the demo key, echoing x-request-id; no key is 401", async () => {
    const keys = manifest.demoPartner!.keys;
    const lookup = await get("/tokens", { address: usdc() }, keys.quote, { "x-request-id": "e2e-tokens" });
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get("x-request-id")).toBe("e2e-tokens");
    expect(lookup.body).toMatchObject({ address: usdc(), metadata: { symbol: "USDC", decimals: 6 } });
    expect(lookup.body.pools).toBeGreaterThan(0);
    const anonymous = await get("/tokens", { address: usdc() });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("quotes with the quote-only key and refuses it the transaction parameters", async () => {
    const quoteKey = manifest.demoPartner!.keys.quote;
    const query = { in: zeroAddress, out: usdc(), amount: parseEther("1").toString() };
    const plain = await get("/quote", query, quoteKey);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ ok: true, tokenIn: zeroAddress, tokenOut: usdc() });
    expect(plain.body.tx).toBeUndefined();
    const recipient = manifest.accounts[RECIPIENT]!.address;
    expect((await get("/quote", { ...query, recipient }, quoteKey)).status).toBe(403);
  });

  it("returns a swap key's transaction that delivers exactly swap.netOut when sent", async () => {
    const recipient = manifest.accounts[RECIPIENT]!.address;
    const amount = parseEther("2");
    const { status, body } = await get(
      "/quote",
      { in: zeroAddress, out: usdc(), amount: amount.toString(), recipient },
      manifest.demoPartner!.keys.swap,
    );
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.tx).toMatchObject({
      to: manifest.contracts.executor.toLowerCase(),
      value: amount.toString(),
      chainId: CHAIN_ID,
    });
    const chain = junctionChain(service.rpcUrl);
    const client = createPublicClient({ chain, transport: http(service.rpcUrl), cacheTime: 0 });
    const wallet = createWalletClient({
      chain,
      transport: http(service.rpcUrl),
      account: privateKeyToAccount(manifest.accounts[PAYER]!.privateKey as Hex),
    });
    const balance = () =>
      client.readContract({
        address: usdc() as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [recipient],
      });
    const before = await balance();
    const hash = await wallet.sendTransaction({
      account: wallet.account,
      chain,
      to: body.tx.to,
      data: body.tx.data,
      value: BigInt(body.tx.value),
    });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe("success");
    const delivered = (await balance()) - before;
    // Nothing else trades on this devnet between quote and send: exactly the quote, never below the minimum.
    expect(delivered).toBeGreaterThanOrEqual(BigInt(body.swap.minOut));
    expect(delivered).toBe(BigInt(body.swap.netOut));
  });

  it("serves its own OpenAPI document and reference page on the partner host", async () => {
    const doc = (await (await fetch(`${service.partnerUrl}/openapi.json`)).json()) as Json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/tokens", "/quote"]));
    expect((await fetch(`${service.partnerUrl}/docs`)).status).toBe(200);
  });
});
