import {
  type Address,
  decodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../../../test/devnet.ts";
import { createPartnerTestApi, type PartnerTestApi } from "../../../../test/partner-api.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { erc20Abi } from "../../../contracts/abis/ERC20.ts";
import { builderRegistryArtifact } from "../../../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../../../contracts/artifacts/Executor.ts";
import { PARTNER_QUOTE_ERRORS } from "../../../partners/partner-quote.ts";
import { PartnerQuoteResponseSchema } from "../../schemas/partner-quote.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field.
type Json = Record<string, any>;

/**
 * `GET {partner_url}/quote` on a devnet (docs/rules.md, partner quote rules 1-8; errors: partner): every 400
 * of the parameter table, 401/403, x-request-id, quotes with and without recipient for ERC-20 and native ETH
 * in and out, and the proof: the returned transaction, sent right after the quote from a funded wallet,
 * delivers exactly swap.netOut to the recipient. Fee-on-transfer and rebasing tokens never get an ok
 * transaction that would deliver less.
 */
const PAYER = 5;
const RECIPIENT = 7;
let devnet: TestDevnet;
let api: PartnerTestApi;

beforeAll(async () => {
  devnet = await startTestDevnet();
  api = await createPartnerTestApi(devnet);
});
afterAll(async () => {
  await api?.close();
  await devnet?.dispose();
});

const token = (symbol: string) =>
  devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase() as Address;
const recipient = () => devnet.wallet(RECIPIENT).account!.address;
const quote = async (
  query: Record<string, string>,
  options: { key?: string | null; headers?: Record<string, string> } = {},
) => {
  const response = await api.get("/quote", query, options);
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
};
const holding = (asset: Address, who: Address) =>
  asset === zeroAddress
    ? devnet.publicClient.getBalance({ address: who })
    : devnet.publicClient.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [who],
      });

/** Sends the quote's tx from the payer (approving swap.spender first for ERC-20 input); what the recipient got. */
async function send(body: Json): Promise<bigint> {
  const wallet = devnet.wallet(PAYER);
  const account = wallet.account!;
  if (body.tokenIn === devnet.manifest.contracts.weth9.toLowerCase()) {
    // The funded accounts hold every seeded token but WETH: wrap the input first.
    const hash = await wallet.writeContract({
      address: body.tokenIn,
      abi: parseAbi(["function deposit() payable"]),
      functionName: "deposit",
      value: BigInt(body.amountIn),
      chain: wallet.chain,
      account,
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
  }
  if (body.tokenIn !== zeroAddress) {
    const hash = await wallet.writeContract({
      address: body.tokenIn,
      abi: erc20Abi,
      functionName: "approve",
      args: [body.swap.spender, maxUint256],
      chain: wallet.chain,
      account,
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
  }
  const before = await holding(body.tokenOut, body.swap.recipient);
  const hash = await wallet.sendTransaction({
    account,
    chain: wallet.chain,
    to: body.tx.to,
    data: body.tx.data as Hex,
    value: BigInt(body.tx.value),
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return (await holding(body.tokenOut, body.swap.recipient)) - before;
}

/** The fields every ok quote carries, and their arithmetic. */
function expectQuoteFigures(body: Json, query: { in: string; out: string; amount: string }) {
  expect(body).toMatchObject({ ok: true, tokenIn: query.in, tokenOut: query.out, amountIn: query.amount });
  expect(body.error).toBeUndefined();
  expect(body.block.number).toMatch(/^[0-9]+$/);
  expect(body.block.hash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(BigInt(body.gas)).toBeGreaterThan(0n);
  expect(BigInt(body.netOut)).toBe(BigInt(body.amountOut) - BigInt(body.gasCostOut));
  const weth = devnet.manifest.contracts.weth9.toLowerCase();
  const asToken = (t: string) => (t === zeroAddress ? weth : t);
  expect(body.swaps.length).toBeGreaterThan(0);
  for (const leg of body.swaps) {
    expect(Object.keys(leg).sort()).toEqual([
      "amountIn",
      "amountOut",
      "kind",
      "pool",
      "source",
      "tokenIn",
      "tokenOut",
    ]);
    expect(leg.tokenIn).not.toBe(zeroAddress);
    expect(leg.tokenOut).not.toBe(zeroAddress);
  }
  expect(body.swaps.some((leg: Json) => leg.tokenIn === asToken(query.in))).toBe(true);
  expect(body.swaps.some((leg: Json) => leg.tokenOut === asToken(query.out))).toBe(true);
}

/** The tx and swap fields of an ok quote with recipient, and their arithmetic. */
function expectSwap(body: Json) {
  const executor = devnet.manifest.contracts.executor.toLowerCase();
  expect(body.tx).toMatchObject({ to: executor, chainId: CHAIN_ID });
  expect(body.tx.value).toBe(body.tokenIn === zeroAddress ? body.amountIn : "0");
  expect(body.swap.spender).toBe(body.tx.to);
  expect(body.swap.amountOut).toBe(body.amountOut);
  expect(BigInt(body.swap.fee)).toBe((BigInt(body.swap.amountOut) * BigInt(body.swap.feeBps)) / 10_000n);
  expect(BigInt(body.swap.netOut)).toBe(BigInt(body.swap.amountOut) - BigInt(body.swap.fee));
  expect(BigInt(body.swap.minOut)).toBeLessThanOrEqual(BigInt(body.swap.netOut));
  expect(BigInt(body.swap.executorGas)).toBeGreaterThan(0n);
  const { args } = decodeFunctionData({ abi: executorArtifact.abi, data: body.tx.data });
  const params = args[0] as { minOut: bigint; deadline: bigint; recipient: Address };
  expect(params.minOut).toBe(BigInt(body.swap.minOut));
  expect(params.deadline).toBe(BigInt(body.swap.deadline));
  expect(params.recipient.toLowerCase()).toBe(body.swap.recipient);
}

describe("GET {partner_url}/quote: terms", () => {
  const base = () => ({
    in: devnet.manifest.contracts.weth9,
    out: token("USDC"),
    amount: "1000000000000000",
  });

  it("answers 400 for every rule of the parameter table and any other parameter", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [Record<string, string>, string, string?][] = [
      [{ out: base().out, amount: "1000" }, "in"],
      [{ in: base().in, amount: "1000" }, "out"],
      [{ in: base().in, out: base().out }, "amount"],
      [{ ...base(), in: "0x1234" }, "in"],
      [{ ...base(), out: "weth" }, "out"],
      [{ ...base(), amount: "0" }, "amount"],
      [{ ...base(), amount: "0100" }, "amount"],
      [{ ...base(), amount: "1.5" }, "amount"],
      [{ ...base(), amount: "-1" }, "amount"],
      [{ ...base(), amount: (maxUint256 + 1n).toString() }, "amount"],
      [{ ...base(), recipient: zeroAddress }, "recipient"],
      [{ ...base(), recipient: "0xabc" }, "recipient"],
      [{ ...base(), recipient: devnet.manifest.contracts.executor }, "recipient"],
      [{ ...base(), recipient: recipient(), slippageBps: "501" }, "slippageBps"],
      [{ ...base(), recipient: recipient(), slippageBps: "-1" }, "slippageBps"],
      [{ ...base(), recipient: recipient(), slippageBps: "0.5" }, "slippageBps"],
      [{ ...base(), recipient: recipient(), minOut: "01" }, "minOut"],
      [{ ...base(), recipient: recipient(), minOut: "-5" }, "minOut"],
      [{ ...base(), recipient: recipient(), deadline: String(now - 60) }, "deadline"],
      [{ ...base(), recipient: recipient(), deadline: String(now + 3_700) }, "deadline"],
      [{ ...base(), recipient: recipient(), deadline: "soon" }, "deadline"],
      [{ ...base(), slippageBps: "50" }, "slippageBps"],
      [{ ...base(), minOut: "1" }, "minOut"],
      [{ ...base(), deadline: String(now + 60) }, "deadline"],
      [{ ...base(), chainId: "4663" }, ""],
      [{ ...base(), amountIn: "1000" }, ""],
      [{ ...base(), out: base().in.toUpperCase().replace("0X", "0x") }, "", "IDENTICAL_TOKENS"],
    ];
    for (const [query, path, code] of cases) {
      const { status, body } = await quote(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error.code, JSON.stringify(query)).toBe(code ?? "INVALID_REQUEST");
      if (path)
        expect(
          body.error.issues.map((i: { path: string }) => i.path),
          JSON.stringify(query),
        ).toContain(path);
    }
    const long = await quote(base(), { headers: { "x-request-id": "x".repeat(129) } });
    expect(long.status).toBe(400);
    expect(long.body.error.issues[0].path).toBe("x-request-id");
  });

  it("needs a key (401), and a key with swap permission for the transaction parameters (403)", async () => {
    expect((await quote(base(), { key: null })).status).toBe(401);
    expect((await quote(base(), { key: "not-a-key" })).status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    const extras: Record<string, string>[] = [
      { recipient: recipient() },
      { recipient: recipient(), slippageBps: "10" },
      { slippageBps: "10" },
      { minOut: "1" },
      { deadline: String(now + 60) },
    ];
    for (const extra of extras) {
      const { status, body } = await quote({ ...base(), ...extra }, { key: api.keys.quote.secret });
      expect(status, JSON.stringify(extra)).toBe(403);
      expect(body.error.code).toBe("FORBIDDEN");
    }
    expect((await quote(base(), { key: api.keys.quote.secret })).status).toBe(200);
  });

  it("echoes x-request-id in the header and requestId, or generates a UUID", async () => {
    const sent = await quote(base(), { headers: { "x-request-id": "req-2026:abc_1.x" } });
    expect(sent.headers.get("x-request-id")).toBe("req-2026:abc_1.x");
    expect(sent.body.requestId).toBe("req-2026:abc_1.x");
    const generated = await quote(base());
    expect(generated.body.requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(generated.headers.get("x-request-id")).toBe(generated.body.requestId);
    const refused = await quote({ ...base(), bogus: "1" }, { headers: { "x-request-id": "trace-400" } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-request-id")).toBe("trace-400");
    const unauthorized = await quote(base(), { key: null, headers: { "x-request-id": "trace-401" } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("x-request-id")).toBe("trace-401");
  });
});

describe("GET {partner_url}/quote: quotes and transactions", () => {
  const cases = () => [
    {
      name: "ERC-20 in and out",
      in: devnet.manifest.contracts.weth9.toLowerCase(),
      out: token("USDC"),
      amount: parseEther("3").toString(),
    },
    { name: "native ETH in", in: zeroAddress, out: token("USDC"), amount: parseEther("2").toString() },
    { name: "native ETH out", in: token("USDC"), out: zeroAddress, amount: "2500000000" },
    {
      name: "ERC-20 to ERC-20 through hops",
      in: token("LINK"),
      out: token("DAI"),
      amount: parseEther("100").toString(),
    },
    // The schedule gives this pair a fee of its own (5 bps): the calldata says so, to save the executor a read.
    { name: "a pair with a fee of its own", in: token("USDC"), out: token("USDT"), amount: "1000000000" },
  ];

  it("quotes without recipient: figures before the service fee, swaps in execution order, no tx", async () => {
    for (const { name, ...query } of cases()) {
      const { status, body } = await quote(query);
      expect(status, name).toBe(200);
      expectQuoteFigures(body, query);
      expect(body.tx).toBeUndefined();
      expect(body.swap).toBeUndefined();
    }
  });

  it("returns a transaction that delivers exactly swap.netOut when sent right after the quote", async () => {
    for (const { name, ...query } of cases()) {
      const { status, body } = await quote({ ...query, recipient: recipient() });
      expect(status, name).toBe(200);
      expectQuoteFigures(body, query);
      expectSwap(body);
      expect(body.swap.recipient).toBe(recipient().toLowerCase());
      expect(BigInt(body.swap.minOut)).toBe((BigInt(body.swap.netOut) * 9_950n) / 10_000n);
      const [, ownFee] = await devnet.publicClient.readContract({
        address: devnet.manifest.contracts.builderRegistry,
        abi: builderRegistryArtifact.abi,
        functionName: "pairRouteFee",
        args: [query.in as Address, query.out as Address],
        blockNumber: BigInt(body.block.number),
      });
      const { args } = decodeFunctionData({ abi: executorArtifact.abi, data: body.tx.data });
      const quotedRouteFee = (args[0] as { maxRouteFeeBps: number }).maxRouteFeeBps;
      expect(quotedRouteFee & 0x7fff, name).toBe(body.swap.feeBps);
      expect(quotedRouteFee >= 0x8000, name).toBe(ownFee);
      if (name === "a pair with a fee of its own") expect(ownFee && body.swap.feeBps === 5).toBe(true);
      const delivered = await send(body);
      expect(delivered, name).toBe(BigInt(body.swap.netOut));
      expect(delivered).toBeGreaterThanOrEqual(BigInt(body.swap.minOut));
    }
  });

  it("honours minOut, slippageBps and deadline; minOut above swap.netOut is ok: false with the figures", async () => {
    const query = {
      in: devnet.manifest.contracts.weth9.toLowerCase(),
      out: token("DAI"),
      amount: parseEther("1").toString(),
    };
    const plain = (await quote({ ...query, recipient: recipient() })).body;
    const netOut = BigInt(plain.swap.netOut);
    const deadline = Math.floor(Date.now() / 1000) + 1_800;
    const exact = await quote({
      ...query,
      recipient: recipient(),
      minOut: netOut.toString(),
      deadline: String(deadline),
    });
    expectSwap(exact.body);
    expect(exact.body.swap).toMatchObject({ minOut: netOut.toString(), deadline });
    const zero = await quote({ ...query, recipient: recipient(), slippageBps: "0" });
    expect(zero.body.swap.minOut).toBe(zero.body.swap.netOut);
    const wide = await quote({ ...query, recipient: recipient(), slippageBps: "500" });
    expect(BigInt(wide.body.swap.minOut)).toBe((BigInt(wide.body.swap.netOut) * 9_500n) / 10_000n);
    const above = await quote({ ...query, recipient: recipient(), minOut: (netOut + 1n).toString() });
    expect(above.status).toBe(200);
    expect(above.body).toMatchObject({
      ok: false,
      error: "min-out-above-net-out",
      amountOut: plain.amountOut,
    });
    expect(above.body.tx).toBeUndefined();
    expect(above.body.swap).toBeUndefined();
  });

  it("answers ok: false from the closed list for tokens it cannot route", async () => {
    const base = { amount: parseEther("1").toString(), out: token("USDC") };
    const noCode = await quote({ ...base, in: "0x00000000000000000000000000000000deadbeef" });
    expect(noCode.status).toBe(200);
    expect(noCode.body).toMatchObject({
      ok: false,
      error: "unknown-token",
      tokenIn: "0x00000000000000000000000000000000deadbeef",
    });
    expect(noCode.body.amountOut).toBeUndefined();
    const dust = await quote({ ...base, in: token("WBTC"), amount: (10n ** 40n).toString() });
    expect(dust.status).toBe(200);
    expect(dust.body.ok).toBe(false);
    expect(PARTNER_QUOTE_ERRORS).toContain(dust.body.error);
  });

  it("answers a dust amount whose gas costs more than its output with ok: false, never a negative netOut", async () => {
    const query = { in: token("USDC"), out: devnet.manifest.contracts.weth9.toLowerCase(), amount: "1000" };
    for (const terms of [query, { ...query, recipient: recipient() }]) {
      const { status, body } = await quote(terms);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: false, error: "gas-exceeds-output" });
      expect(BigInt(body.gasCostOut)).toBeGreaterThan(BigInt(body.amountOut));
      expect(body.swaps.length).toBeGreaterThan(0);
      expect(body.netOut).toBeUndefined();
      expect(body.tx).toBeUndefined();
      expect(PartnerQuoteResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    }
  });

  it("never returns ok with a transaction that would deliver less for fee-on-transfer and rebasing tokens", async () => {
    const weth = devnet.manifest.contracts.weth9.toLowerCase();
    const seen: string[] = [];
    for (const [tokenIn, tokenOut, amount] of [
      [token("TAX"), weth, parseEther("100")],
      [weth, token("TAX"), parseEther("1")],
      [token("TAX"), token("USDC"), parseEther("100")],
      [token("rUSD"), token("USDC"), parseEther("1000")],
      [token("USDC"), token("rUSD"), 1_000_000_000n],
    ] as const) {
      const query = { in: tokenIn, out: tokenOut, amount: amount.toString(), recipient: recipient() };
      const { status, body } = await quote(query);
      expect(status).toBe(200);
      seen.push(`${tokenIn}->${tokenOut}: ${body.ok ? "ok" : body.error}`);
      if (!body.ok) {
        expect(PARTNER_QUOTE_ERRORS).toContain(body.error);
        expect(body.tx).toBeUndefined();
        continue;
      }
      expectSwap(body);
      expect(await send(body), JSON.stringify(query)).toBe(BigInt(body.swap.netOut));
    }
    console.log(seen.join("\n"));
  });
});
