import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEther,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { type StandInProviders, startStandInProviders } from "../../test/stand-in-providers.ts";
import { toQuoteResponse } from "../api/routes/quote-response.ts";
import { PROVIDER_DEADLINE_MS } from "../config/config.ts";
import { weth9Abi } from "../contracts/abis/WETH9.ts";
import { SLOW_MS } from "../devnet/stand-ins/stand-in-server.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import type { QuoteSource } from "../providers/quote-sources.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createQuoter } from "./create-quoter.ts";
import type { ProviderOutcome } from "./provider-candidates.ts";
import type { QuoteResult } from "./quote-types.ts";

/**
 * Third-party providers in the comparison, against the devnet stand-ins (real HTTP servers with the
 * providers' API shapes, executing through contracts the devnet deployed): who wins a fixed scenario set,
 * every fault mode's outcome, `provider` restriction, and a selected firm quote sent for a real account.
 */
let devnet: TestDevnet;
let standIns: StandInProviders;
let quote: ReturnType<typeof createQuoter>;
const outcomes: ProviderOutcome[] = [];

const token = (symbol: string): Address =>
  symbol === "ETH" ? zeroAddress : devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

const ask = (tokenIn: string, tokenOut: string, amountIn: bigint, provider?: QuoteSource) =>
  quote(
    { tokenIn: token(tokenIn), tokenOut: token(tokenOut), amountIn, ...(provider ? { provider } : {}) },
    AbortSignal.timeout(25_000),
  );

const fault = (provider: "aggregator-a" | "aggregator-b", mode: string) => standIns.fault(provider, mode);

const entry = (result: QuoteResult, id: string) => result.comparison.find((c) => c.id === id);

beforeAll(async () => {
  devnet = await startTestDevnet();
  const { contracts } = devnet.manifest;
  const client = devnet.publicClient as PublicClient;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(devnet.manifest.deploymentBlock) });
  await index.sync();
  standIns = await startStandInProviders(devnet);
  quote = createQuoter({
    client,
    index,
    contracts,
    fixtures: createFixtures(client),
    // A shared, loaded CI machine makes the stand-ins slow to answer; a deadline below SLOW_MS still
    // leaves the slow fault out.
    providerDeadlineMs: PROVIDER_DEADLINE_MS.max - 2_000,
    providers: [standIns.aggregatorA, standIns.aggregatorB],
    onProviderOutcome: (outcome) => outcomes.push(outcome),
  });
}, 120_000);
afterAll(async () => {
  await standIns?.close();
  await devnet?.dispose();
});

describe("third-party providers in the comparison", () => {
  it("lets each source win some and lose some of a fixed scenario set, every candidate simulated", async () => {
    const scenarios: [string, string, bigint][] = [
      ["WETH", "LINK", parseEther("0.1")],
      // aggregator-a's stablecoin connectors and 10 bps beat the service fee here (WETH -> FROG, 0.01, was
      // its win until the executor's fee path got 14k gas cheaper).
      ["AAVE", "DAI", parseEther("10")],
      ["USDT", "UNI", 1_000_000_000n],
      ["OP", "USDC", parseEther("1000")],
      ["ETH", "USDC", parseEther("0.05")],
      ["USDC", "ETH", 100_000_000n],
      ["UNI", "DAI", parseEther("10")],
    ];
    const winners: QuoteSource[] = [];
    for (const [tokenIn, tokenOut, amountIn] of scenarios) {
      const result = await ask(tokenIn, tokenOut, amountIn);
      const providers = new Set(result.comparison.map((c) => c.provider));
      expect(providers.has("service"), `${tokenIn}->${tokenOut}`).toBe(true);
      expect(providers.has("aggregator-b"), `${tokenIn}->${tokenOut}`).toBe(true);
      expect(
        [...providers].some((p) => p.startsWith("aggregator-a")),
        `${tokenIn}->${tokenOut}`,
      ).toBe(true);
      for (const candidate of result.comparison) {
        expect(candidate.simulation.status, candidate.id).toBe("simulated");
        // Fee rule 2: no service fee on a provider's quote.
        if (candidate.provider !== "service")
          expect([candidate.serviceFeeBps, candidate.serviceFee]).toEqual([0, 0n]);
      }
      winners.push(
        result.selected.provider === "aggregator-a-direct" ? "aggregator-a" : result.selected.provider,
      );
    }
    for (const source of ["service", "aggregator-a", "aggregator-b"] as const) {
      expect(winners, source).toContain(source);
      expect(winners.filter((w) => w !== source).length, source).toBeGreaterThan(0);
    }
  });

  it("restricts the comparison to the named source, execution checks on", async () => {
    const only = async (provider: QuoteSource) => [
      ...new Set((await ask("WETH", "LINK", parseEther("0.1"), provider)).comparison.map((c) => c.provider)),
    ];
    expect(await only("service")).toEqual(["service"]);
    expect(await only("aggregator-b")).toEqual(["aggregator-b"]);
    const a = await ask("WETH", "LINK", parseEther("0.1"), "aggregator-a");
    expect(a.comparison.every((c) => c.provider.startsWith("aggregator-a"))).toBe(true);
    const direct = await ask("WETH", "LINK", parseEther("0.1"), "aggregator-a-direct");
    expect(direct.comparison.map((c) => c.variant)).toEqual(["direct"]);
    expect(direct.selected.simulation.status).toBe("simulated");
  });

  it("lists a refused, expired, reverting or short firm quote with its status, and leaves out one that never came", async () => {
    const cases: [string, string | undefined][] = [
      ["wrong-binding", "provider-binding-mismatch"],
      ["stale-settler", "provider-binding-mismatch"],
      ["expired", "expired"],
      ["revert", "reverted"],
      ["short", "insufficient-output"],
      ["decline", undefined],
      ["5xx", undefined],
      ["malformed", undefined],
    ];
    try {
      for (const [mode, reason] of cases) {
        await fault("aggregator-b", mode);
        const result = await ask("WETH", "LINK", parseEther("0.1"));
        const firm = entry(result, "aggregator-b-firm");
        if (reason === undefined) expect(firm, mode).toBeUndefined();
        else {
          expect(firm?.simulation, mode).toMatchObject({
            reason,
            status: reason === "expired" ? "expired" : "failed",
          });
          expect(result.selected.id, mode).not.toBe("aggregator-b-firm");
        }
        // Never a remote body, a credential or calldata in the response.
        const body = JSON.stringify(toQuoteResponse(result));
        expect(body, mode).not.toMatch(/stand-in-secret|exploded|0x[0-9a-f]{200}/i);
      }
    } finally {
      await fault("aggregator-b", "none");
    }
  });

  it("lists aggregator-a's reverting and short variants as failed", async () => {
    try {
      for (const [mode, reason] of [
        ["revert", "reverted"],
        ["short", "insufficient-output"],
      ] as const) {
        await fault("aggregator-a", mode);
        const result = await ask("WETH", "FROG", parseEther("0.01"));
        const variants = result.comparison.filter((c) => c.provider.startsWith("aggregator-a"));
        expect(variants.length, mode).toBeGreaterThan(0);
        for (const variant of variants)
          expect(variant.simulation, mode).toMatchObject({ status: "failed", reason });
        expect(result.selected.provider.startsWith("aggregator-a"), mode).toBe(false);
      }
    } finally {
      await fault("aggregator-a", "none");
    }
  });

  it("does not wait for a slow provider past its deadline", async () => {
    try {
      await fault("aggregator-a", "slow");
      const started = Date.now();
      const result = await ask("WETH", "LINK", parseEther("0.1"));
      // The stand-in answers only after SLOW_MS; the quote came back without it.
      expect(Date.now() - started).toBeLessThan(SLOW_MS);
      expect(result.comparison.some((c) => c.provider.startsWith("aggregator-a"))).toBe(false);
      expect(entry(result, "aggregator-b-firm")).toBeDefined();
      expect(outcomes.some((o) => o.provider === "aggregator-a" && o.outcome === "timeout")).toBe(true);
    } finally {
      await fault("aggregator-a", "none");
    }
  });

  it("a selected firm quote, asked for a real account and sent, delivers exactly the assessed output", async () => {
    const amountIn = parseEther("0.1");
    const result = await ask("WETH", "LINK", amountIn);
    expect(result.selected.id).toBe("aggregator-b-firm");
    expect(result.selected.simulation.status).toBe("simulated");
    const assessed =
      result.selected.simulation.status === "simulated" ? result.selected.simulation.amountOut : 0n;

    const wallet = devnet.wallet(6);
    const account = wallet.account!.address;
    const { weth9 } = devnet.manifest.contracts;
    const { allowanceHolder } = devnet.manifest.aggregators;
    const send = async (to: Address, data: Hex, value = 0n) => {
      const hash = await wallet.sendTransaction({
        to,
        data,
        value,
        account: wallet.account!,
        chain: wallet.chain,
      });
      const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
    };
    await send(weth9, encodeFunctionData({ abi: weth9Abi, functionName: "deposit" }), amountIn);
    await send(
      weth9,
      encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [allowanceHolder, amountIn] }),
    );
    const [forAccount] = await standIns.aggregatorB.quote({
      tokenIn: weth9,
      tokenOut: token("LINK"),
      amountIn,
      taker: account,
      blockNumber: await devnet.publicClient.getBlockNumber(),
      signal: AbortSignal.timeout(5_000),
    });
    if (!forAccount || "reason" in forAccount || forAccount.bindingMismatch) throw new Error("no firm quote");
    const linkBefore = await devnet.publicClient.readContract({
      address: token("LINK"),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
    });
    await send(forAccount.tx.to, forAccount.tx.data, forAccount.tx.value);
    const linkAfter = await devnet.publicClient.readContract({
      address: token("LINK"),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
    });
    expect(linkAfter - linkBefore).toBe(assessed);
  });
});
