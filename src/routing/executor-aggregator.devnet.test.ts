import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { executorKit, feeOf } from "../../test/executor-kit.ts";
import { type StandInProviders, startStandInProviders } from "../../test/stand-in-providers.ts";
import { junctionChain } from "../chain/chain.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { standInAllowanceHolderArtifact } from "../contracts/artifacts/StandInAllowanceHolder.ts";
import { standInSettlerRegistryArtifact } from "../contracts/artifacts/StandInSettlerRegistry.ts";
import { SETTLER_FEATURE } from "../devnet/deploy-aggregators.ts";
import { AGGREGATOR_A_VARIANTS } from "../providers/aggregator-a.ts";
import type { ProviderFailure, ProviderQuote, QuoteProvider } from "../providers/provider.ts";
import { decodeExecutorOutput } from "../simulation/simulate-transaction.ts";
import { type AggregatorEntry, buildExecutorAggregatorSwap } from "./aggregator-calldata.ts";

/**
 * A provider's quote executed through the deployed executor (`swapThroughAggregator`) on the devnet: the
 * running HTTP stand-ins quote with the executor as taker and recipient, the transaction is wrapped with
 * `buildExecutorAggregatorSwap`, simulated, and sent from a funded wallet; the recipient receives exactly
 * the simulated amount, which is the quoted output less the builder fee, and the settlement charges no
 * service fee. A settler the registry no longer names and an expired firm quote end as named errors.
 */
let devnet: TestDevnet;
let kit: ReturnType<typeof executorKit>;
let providers: StandInProviders;
let aggregatorA: QuoteProvider;
let aggregatorB: QuoteProvider;

const PAYER = 4;
const RECIPIENT = 7;
const BUILDER_BPS = 10;
const address = (index: number) => devnet.manifest.accounts[index]!.address;

beforeAll(async () => {
  devnet = await startTestDevnet();
  kit = executorKit(devnet);
  providers = await startStandInProviders(devnet);
  ({ aggregatorA, aggregatorB } = providers);
  await kit.wrap(PAYER, parseEther("50"));
  for (const symbol of ["USDC", "WETH"]) await kit.approveExecutor(PAYER, kit.token(symbol));
}, 120_000);
afterAll(async () => {
  await providers?.close();
  await devnet?.dispose();
});

/** Asks `provider` for its quotes with the executor as taker (and so recipient), at the latest block. */
async function quotesFor(
  provider: QuoteProvider,
  terms: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
  variants?: string[],
): Promise<ProviderQuote[]> {
  const outcomes = await outcomesFor(provider, terms, variants);
  return outcomes.filter((o): o is ProviderQuote => !("reason" in o) && !o.bindingMismatch);
}

async function outcomesFor(
  provider: QuoteProvider,
  terms: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
  variants?: string[],
): Promise<(ProviderQuote | ProviderFailure)[]> {
  return provider.quote({
    ...terms,
    taker: devnet.manifest.contracts.executor,
    blockNumber: await devnet.publicClient.getBlockNumber(),
    signal: AbortSignal.timeout(20_000),
    ...(variants ? { variants } : {}),
  });
}

/** The executor transaction wrapping `quote`, attributed to the demo builder at its 10 bps. */
function wrap(
  quote: ProviderQuote,
  terms: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
  over = {},
) {
  const entry: AggregatorEntry = quote.provider === "aggregator-b" ? "allowance-holder" : "router";
  const net = quote.amountOut - feeOf(quote.amountOut, BUILDER_BPS);
  const deadline = quote.expiresAt ?? BigInt(Math.floor(Date.now() / 1000) + 600);
  return buildExecutorAggregatorSwap({
    ...kit.terms({ ...terms, recipient: address(RECIPIENT), route: { branches: [] } }),
    maxBuilderFeeBps: BUILDER_BPS,
    minOut: net,
    deadline,
    entry,
    data: quote.tx.data,
    ...over,
  });
}

/** Simulates, sends and checks one wrapped quote; returns what the recipient received. */
async function executeAndCheck(
  quote: ProviderQuote,
  terms: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
) {
  const tx = wrap(quote, terms);
  const simulated = await devnet.publicClient.call({ account: address(PAYER), ...tx });
  const expected = decodeExecutorOutput(simulated.data as Hex);
  const builderFee = feeOf(quote.amountOut, BUILDER_BPS);
  expect(expected, `${quote.provider}/${quote.variant}`).toBe(quote.amountOut - builderFee);

  const before = await kit.balanceOf(terms.tokenOut, address(RECIPIENT));
  const receipt = await kit.send(PAYER, tx);
  const received = (await kit.balanceOf(terms.tokenOut, address(RECIPIENT))) - before;
  expect(received, `${quote.provider}/${quote.variant}`).toBe(expected);

  const settled = parseEventLogs({
    abi: executorArtifact.abi,
    logs: receipt.logs,
    eventName: "Settled",
  });
  expect(settled).toHaveLength(1);
  expect(settled[0]!.args).toMatchObject({
    payer: address(PAYER),
    recipient: address(RECIPIENT),
    tokenIn: terms.tokenIn,
    amountIn: terms.amountIn,
    tokenOut: terms.tokenOut,
    grossAmountOut: quote.amountOut,
    routeFee: 0n,
    builderFee,
    amountOut: expected,
    builderId: devnet.manifest.junction.demoBuilder.builderId,
  });
  await expectExecutorClean(terms.tokenIn);
  return received;
}

/**
 * The executor holds nothing, has allowed the router nothing, and the allowance holder's lasting allowance
 * (entry 2) opens only inside the executor's own `exec`: the active settler asking the holder for the
 * executor's input token outside it is refused.
 */
async function expectExecutorClean(tokenIn: Address) {
  await kit.expectExecutorEmpty();
  if (tokenIn === zeroAddress) return;
  const { aggregators, contracts } = devnet.manifest;
  expect(
    await devnet.publicClient.readContract({
      address: tokenIn,
      abi: erc20Abi,
      functionName: "allowance",
      args: [contracts.executor, aggregators.aggregatorARouter],
    }),
  ).toBe(0n);
  const settler = await devnet.publicClient.readContract({
    address: aggregators.settlerRegistry,
    abi: standInSettlerRegistryArtifact.abi,
    functionName: "ownerOf",
    args: [BigInt(SETTLER_FEATURE)],
  });
  await expect(
    devnet.publicClient.simulateContract({
      account: settler,
      address: aggregators.allowanceHolder,
      abi: standInAllowanceHolderArtifact.abi,
      functionName: "transferFrom",
      args: [tokenIn, contracts.executor, settler, 1n],
    }),
  ).rejects.toThrow(/ConfusedDeputy/);
}

const fault = (provider: "aggregator-a" | "aggregator-b", mode: string, times = 1) =>
  providers.fault(provider, mode, times);

describe("aggregator quotes executed through the executor", () => {
  it("was built with the stand-ins' router, allowance holder and settler registry", async () => {
    const { aggregators, contracts } = devnet.manifest;
    const read = (
      functionName: "aggregatorRouter" | "allowanceHolder" | "settlerRegistry" | "settlerFeature",
    ) =>
      devnet.publicClient.readContract({
        address: contracts.executor,
        abi: executorArtifact.abi,
        functionName,
      });
    expect(await read("aggregatorRouter")).toBe(getAddress(aggregators.aggregatorARouter));
    expect(await read("allowanceHolder")).toBe(getAddress(aggregators.allowanceHolder));
    expect(await read("settlerRegistry")).toBe(getAddress(aggregators.settlerRegistry));
    expect(await read("settlerFeature")).toBe(BigInt(SETTLER_FEATURE));
  });

  it("aggregator-a: every variant's built transaction, USDC -> WETH", async () => {
    const terms = { tokenIn: kit.token("USDC"), tokenOut: kit.token("WETH"), amountIn: 20_000n * 10n ** 6n };
    const quotes = await quotesFor(aggregatorA, terms);
    expect(quotes.map((q) => q.variant).sort()).toEqual(Object.keys(AGGREGATOR_A_VARIANTS).sort());
    // Each variant is quoted afresh: the previous swap moved the pools.
    for (const variant of Object.keys(AGGREGATOR_A_VARIANTS)) {
      const [quote] = await quotesFor(aggregatorA, terms, [variant]);
      expect(quote?.variant).toBe(variant);
      await executeAndCheck(quote!, terms);
    }
  });

  it("aggregator-a: native ETH out, USDC -> ETH", async () => {
    const terms = { tokenIn: kit.token("USDC"), tokenOut: zeroAddress, amountIn: 5_000n * 10n ** 6n };
    const [quote] = await quotesFor(aggregatorA, terms, ["default"]);
    await executeAndCheck(quote!, terms);
  });

  it("aggregator-b: the firm quote, WETH -> LINK and native ETH in, ETH -> USDC", async () => {
    for (const terms of [
      { tokenIn: kit.token("WETH"), tokenOut: kit.token("LINK"), amountIn: parseEther("0.1") },
      { tokenIn: zeroAddress, tokenOut: kit.token("USDC"), amountIn: parseEther("0.05") },
    ]) {
      const [quote] = await quotesFor(aggregatorB, terms);
      expect(quote!.expiresAt).toBeDefined();
      await executeAndCheck(quote!, terms);
    }
  });

  it("a settler the registry no longer names: SettlerNotActive, before anything moves", async () => {
    const terms = { tokenIn: kit.token("WETH"), tokenOut: kit.token("LINK"), amountIn: parseEther("0.1") };
    const { aggregators } = devnet.manifest;
    // The stand-in quoting through the stale settler.
    await fault("aggregator-b", "stale-settler");
    const [stale] = await outcomesFor(aggregatorB, terms);
    if (!stale || "reason" in stale) throw new Error("no stale-settler quote");
    expect(stale.bindingMismatch).toBe(true);
    expect(await kit.revertOf(address(PAYER), wrap(stale, terms))).toEqual({
      errorName: "SettlerNotActive",
      args: [getAddress(aggregators.staleSettler)],
    });

    // A firm quote taken while its settler was active, after the registry moved on.
    const [quote] = await quotesFor(aggregatorB, terms);
    await setActiveSettler(aggregators.staleSettler);
    try {
      expect(await kit.revertOf(address(PAYER), wrap(quote!, terms))).toEqual({
        errorName: "SettlerNotActive",
        args: [getAddress(aggregators.settler)],
      });
    } finally {
      await setActiveSettler(aggregators.settler);
    }
  });

  it("an expired firm quote: DeadlineExpired at its expiry, AggregatorCallFailed past a later deadline", async () => {
    const terms = { tokenIn: kit.token("WETH"), tokenOut: kit.token("LINK"), amountIn: parseEther("0.1") };
    await fault("aggregator-b", "expired");
    const [expired] = await quotesFor(aggregatorB, terms);
    const expiresAt = expired!.expiresAt!;
    expect(await kit.revertOf(address(PAYER), wrap(expired!, terms))).toMatchObject({
      errorName: "DeadlineExpired",
      args: [expiresAt, expect.any(BigInt)],
    });
    const later = wrap(expired!, terms, { deadline: expiresAt + 3_600n });
    expect((await kit.revertOf(address(PAYER), later)).errorName).toBe("AggregatorCallFailed");
  });

  it("a short delivery: InsufficientOutput against the quoted net", async () => {
    const terms = { tokenIn: kit.token("USDC"), tokenOut: kit.token("WETH"), amountIn: 1_000n * 10n ** 6n };
    // aggregator-a's default variant asks twice (route, then build); aggregator-b once.
    await fault("aggregator-a", "short", 2);
    const [a] = await quotesFor(aggregatorA, terms, ["default"]);
    await fault("aggregator-b", "short", 1);
    const [b] = await quotesFor(aggregatorB, terms);
    for (const quote of [a!, b!])
      expect((await kit.revertOf(address(PAYER), wrap(quote, terms))).errorName, quote.provider).toBe(
        "InsufficientOutput",
      );
  });
});

/** The settler registry's owner (the devnet deployer) names `settler` active for the firm quotes' feature. */
async function setActiveSettler(settler: Address) {
  const deployer = devnet.manifest.accounts.find((a) => a.role === "deployer")!;
  const wallet = createWalletClient({
    chain: junctionChain(devnet.rpcUrl),
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(deployer.privateKey as Hex),
  });
  const hash = await wallet.sendTransaction({
    account: wallet.account,
    chain: wallet.chain,
    to: devnet.manifest.aggregators.settlerRegistry,
    data: encodeFunctionData({
      abi: standInSettlerRegistryArtifact.abi,
      functionName: "setActive",
      args: [BigInt(SETTLER_FEATURE), settler],
    }),
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}
