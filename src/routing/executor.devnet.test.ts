import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { executorKit, feeOf } from "../../test/executor-kit.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import type { ExecutorSwap } from "./executor-calldata.ts";

/**
 * Encoded routes executed by the deployed executor on the devnet: V2, V3, V4, mixed, a 3-branch split,
 * 3 hops, native ETH in and out. Every output is compared wei for wei with the official Router02, QuoterV2
 * and V4Quoter at the block the swap executes on (hops use distinct pools, so per-hop quotes compose
 * exactly), and recipient + service fee + builder fee must equal the gross output.
 */
let devnet: TestDevnet;
let kit: ReturnType<typeof executorKit>;
beforeAll(async () => {
  devnet = await startTestDevnet();
  kit = executorKit(devnet);
});
afterAll(() => devnet?.dispose());

const TRADER = 3;
const RECIPIENT = 8;
const address = (index: number) => devnet.manifest.accounts[index]!.address;

/** Swaps as `TRADER` and checks every amount: gross as quoted, fees at the given bps, the event, no dust. */
async function swapAndCheck(
  terms: ExecutorSwap,
  expectedGross: bigint,
  routeBps: number,
  builderBps: number,
) {
  const { junction } = devnet.manifest;
  const before = {
    recipient: await kit.balanceOf(terms.tokenOut, terms.recipient),
    service: await kit.serviceOwed(terms.tokenOut),
    builder: await kit.claimable(junction.demoBuilder.recipient, terms.tokenOut),
  };
  const { settled, receipt } = await kit.swap(TRADER, terms);
  const routeFee = feeOf(expectedGross, routeBps);
  const builderFee = feeOf(expectedGross, builderBps);
  const net = expectedGross - routeFee - builderFee;

  expect(settled).toMatchObject({
    builderId: terms.builderId,
    quoteId: terms.quoteId,
    payer: address(TRADER),
    keyIdHash: terms.keyIdHash,
    recipient: terms.recipient,
    tokenIn: terms.tokenIn,
    amountIn: terms.amountIn,
    tokenOut: terms.tokenOut,
    grossAmountOut: expectedGross,
    routeFee,
    builderFee,
    amountOut: net,
  });
  expect(settled.amountOut + settled.routeFee + settled.builderFee).toBe(settled.grossAmountOut);
  expect((await kit.balanceOf(terms.tokenOut, terms.recipient)) - before.recipient).toBe(net);
  expect((await kit.serviceOwed(terms.tokenOut)) - before.service).toBe(routeFee);
  expect((await kit.claimable(junction.demoBuilder.recipient, terms.tokenOut)) - before.builder).toBe(
    builderFee,
  );
  await kit.expectExecutorEmpty();
  return { settled, receipt };
}

const latest = () => devnet.publicClient.getBlockNumber();

describe("executor on the devnet", () => {
  beforeAll(async () => {
    await kit.wrap(TRADER, 1_000n * 10n ** 18n);
    for (const symbol of ["USDC", "USDT", "WETH"]) await kit.approveExecutor(TRADER, kit.token(symbol));
  });

  it("V2: USDC -> WETH through the canonical pair, as Router02 quotes", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const amountIn = 25_000n * 10n ** 6n;
    const gross = await kit.quote.v2(usdc, weth, amountIn, await latest());
    const terms = kit.terms({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      recipient: address(TRADER),
      route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: weth }] }] },
    });
    const { settled } = await swapAndCheck(terms, gross, 25, 10);
    expect(settled.builderRecipient).toBe(devnet.manifest.junction.demoBuilder.recipient);
  });

  it("V3: WETH -> USDC through the 0.05% pool across ticks, as QuoterV2 quotes", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const amountIn = 40n * 10n ** 18n;
    const gross = await kit.quote.v3(weth, usdc, 500, amountIn, await latest());
    const terms = kit.terms({
      tokenIn: weth,
      tokenOut: usdc,
      amountIn,
      recipient: address(TRADER),
      route: { branches: [{ amountIn, hops: [{ kind: "v3", currencyOut: usdc, fee: 500 }] }] },
    });
    await swapAndCheck(terms, gross, 25, 10);
  });

  it("V4: USDC -> DAI through a hook-free pool at the stable pair's 5 bps service fee, as V4Quoter quotes", async () => {
    const [usdc, dai] = [kit.token("USDC"), kit.token("DAI")];
    const amountIn = 100_000n * 10n ** 6n;
    const gross = await kit.quote.v4(usdc, dai, 100, 1, amountIn, await latest());
    const terms = kit.terms({
      tokenIn: usdc,
      tokenOut: dai,
      amountIn,
      recipient: address(TRADER),
      route: { branches: [{ amountIn, hops: [{ kind: "v4", currencyOut: dai, fee: 100, tickSpacing: 1 }] }] },
    });
    await swapAndCheck(terms, gross, 5, 10);
  });

  it("mixed 3 hops: USDC -(V2)-> WETH -(V3)-> LINK -(V4)-> native ETH", async () => {
    const [usdc, weth, link] = [kit.token("USDC"), kit.token("WETH"), kit.token("LINK")];
    const amountIn = 8_000n * 10n ** 6n;
    const block = await latest();
    const toWeth = await kit.quote.v2(usdc, weth, amountIn, block);
    const toLink = await kit.quote.v3(weth, link, 3000, toWeth, block);
    const gross = await kit.quote.v4(link, zeroAddress, 3000, 60, toLink, block);
    const terms = kit.terms({
      tokenIn: usdc,
      tokenOut: zeroAddress,
      amountIn,
      recipient: address(RECIPIENT),
      route: {
        branches: [
          {
            amountIn,
            hops: [
              { kind: "v2", currencyOut: weth },
              { kind: "v3", currencyOut: link, fee: 3000 },
              { kind: "v4", currencyOut: zeroAddress, fee: 3000, tickSpacing: 60 },
            ],
          },
        ],
      },
    });
    await swapAndCheck(terms, gross, 25, 10);
  });

  it("split over 3 branches: USDC -> WETH through V2, V3 and V4 at once", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const parts = [50_000n, 30_000n, 20_000n].map((usd) => usd * 10n ** 6n) as [bigint, bigint, bigint];
    const amountIn = parts[0] + parts[1] + parts[2];
    const block = await latest();
    const gross =
      (await kit.quote.v2(usdc, weth, parts[0], block)) +
      (await kit.quote.v3(usdc, weth, 3000, parts[1], block)) +
      (await kit.quote.v4(usdc, weth, 3000, 60, parts[2], block));
    const terms = kit.terms({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      recipient: address(TRADER),
      route: {
        branches: [
          { amountIn: parts[0], hops: [{ kind: "v2", currencyOut: weth }] },
          { amountIn: parts[1], hops: [{ kind: "v3", currencyOut: weth, fee: 3000 }] },
          { amountIn: parts[2], hops: [{ kind: "v4", currencyOut: weth, fee: 3000, tickSpacing: 60 }] },
        ],
      },
    });
    await swapAndCheck(terms, gross, 25, 10);
  });

  it("native ETH in: V4 native pool and V3 (wrapped) in two branches", async () => {
    const usdc = kit.token("USDC");
    const [viaV4, viaV3] = [3n * 10n ** 18n, 2n * 10n ** 18n];
    const block = await latest();
    const gross =
      (await kit.quote.v4(zeroAddress, usdc, 500, 10, viaV4, block)) +
      (await kit.quote.v3(zeroAddress, usdc, 3000, viaV3, block));
    const traderEthBefore = await kit.balanceOf(zeroAddress, address(TRADER));
    const terms = kit.terms({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn: viaV4 + viaV3,
      recipient: address(RECIPIENT),
      route: {
        branches: [
          { amountIn: viaV4, hops: [{ kind: "v4", currencyOut: usdc, fee: 500, tickSpacing: 10 }] },
          { amountIn: viaV3, hops: [{ kind: "v3", currencyOut: usdc, fee: 3000 }] },
        ],
      },
    });
    const { receipt } = await swapAndCheck(terms, gross, 25, 10);
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(traderEthBefore - (await kit.balanceOf(zeroAddress, address(TRADER)))).toBe(
      viaV4 + viaV3 + gasPaid,
    );
  });

  it("native ETH in: ETH -> USDC through the V4 native pool", async () => {
    const usdc = kit.token("USDC");
    const amountIn = 4n * 10n ** 18n;
    const gross = await kit.quote.v4(zeroAddress, usdc, 3000, 60, amountIn, await latest());
    const terms = kit.terms({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn,
      recipient: address(RECIPIENT),
      route: {
        branches: [{ amountIn, hops: [{ kind: "v4", currencyOut: usdc, fee: 3000, tickSpacing: 60 }] }],
      },
    });
    await swapAndCheck(terms, gross, 25, 10);
  });

  it("native ETH out: USDC -> ETH through the V3 WETH pool, unwrapped for the recipient", async () => {
    const usdc = kit.token("USDC");
    const amountIn = 12_000n * 10n ** 6n;
    const gross = await kit.quote.v3(usdc, zeroAddress, 3000, amountIn, await latest());
    const terms = kit.terms({
      tokenIn: usdc,
      tokenOut: zeroAddress,
      amountIn,
      recipient: address(RECIPIENT),
      route: { branches: [{ amountIn, hops: [{ kind: "v3", currencyOut: zeroAddress, fee: 3000 }] }] },
    });
    await swapAndCheck(terms, gross, 25, 10);
  });

  it("WETH named as ETH between hops: USDT -(V3 WETH/USDT, out as ETH)-> ETH -(V4 ETH/USDC)-> USDC", async () => {
    const [usdt, usdc] = [kit.token("USDT"), kit.token("USDC")];
    const amountIn = 9_000n * 10n ** 6n;
    const block = await latest();
    const eth = await kit.quote.v3(usdt, zeroAddress, 500, amountIn, block);
    const gross = await kit.quote.v4(zeroAddress, usdc, 500, 10, eth, block);
    const terms = kit.terms({
      tokenIn: usdt,
      tokenOut: usdc,
      amountIn,
      recipient: address(TRADER),
      route: {
        branches: [
          {
            amountIn,
            hops: [
              { kind: "v3", currencyOut: zeroAddress, fee: 500 },
              { kind: "v4", currencyOut: usdc, fee: 500, tickSpacing: 10 },
            ],
          },
        ],
      },
    });
    // USDC/USDT is a stable pair: 5 bps service fee.
    await swapAndCheck(terms, gross, 5, 10);
  });

  it("lets the treasury and the builder claim exactly what the swaps credited", async () => {
    const { junction, accounts, contracts } = devnet.manifest;
    const usdc = kit.token("USDC");
    const accountOf = (who: Address) => accounts.findIndex((account) => account.address === who);
    const claims = [
      {
        who: junction.demoBuilder.recipient,
        owed: () => kit.claimable(junction.demoBuilder.recipient, usdc),
        data: encodeFunctionData({
          abi: executorArtifact.abi,
          functionName: "claim",
          args: [usdc, junction.demoBuilder.recipient],
        }),
      },
      {
        who: junction.treasury,
        owed: () => kit.serviceOwed(usdc),
        data: encodeFunctionData({
          abi: executorArtifact.abi,
          functionName: "claimService",
          args: [usdc, [zeroAddress, junction.demoBuilder.recipient], junction.treasury],
        }),
      },
    ];
    for (const { who, owed, data } of claims) {
      const credited = await owed();
      expect(credited).toBeGreaterThan(0n);
      const before = await kit.balanceOf(usdc, who);
      await kit.send(accountOf(who), { to: contracts.settlementCollector, data });
      expect((await kit.balanceOf(usdc, who)) - before).toBe(credited);
      expect(await owed()).toBe(0n);
    }
    await kit.expectExecutorEmpty();
  });
});
