import { type Address, encodeFunctionData, getAddress, type Hex, maxUint256, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { executorKit, feeOf } from "../../test/executor-kit.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { uniswapV3FactoryAbi } from "../contracts/abis/UniswapV3Factory.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { officialBytecode } from "../contracts/official.ts";
import { buildExecutorSwap } from "./executor-calldata.ts";

/**
 * Adversarial cases against the deployed executor on the devnet: spoofed callbacks (an EOA, a fake pool, a
 * canonical pool of another fee tier, the PoolManager when not awaited), non-canonical and excluded pools,
 * fees above the quoted or capped bps, leftovers, moving another account's approved tokens, and a
 * suspended builder.
 */
let devnet: TestDevnet;
let kit: ReturnType<typeof executorKit>;
beforeAll(async () => {
  devnet = await startTestDevnet();
  kit = executorKit(devnet);
});
afterAll(() => devnet?.dispose());

const TRADER = 4;
const VICTIM = 5;
const ATTACKER = 6;
const GOVERNANCE = 1;
const address = (index: number) => devnet.manifest.accounts[index]!.address;
const executor = () => devnet.manifest.contracts.executor;
const latest = () => devnet.publicClient.getBlockNumber();

const v3Callback = (amount0: bigint, amount1: bigint) => ({
  to: executor(),
  data: encodeFunctionData({
    abi: executorArtifact.abi,
    functionName: "uniswapV3SwapCallback",
    args: [amount0, amount1, "0x"],
  }),
});
const unlockCallback = (data: Hex) => ({
  to: executor(),
  data: encodeFunctionData({ abi: executorArtifact.abi, functionName: "unlockCallback", args: [data] }),
});

/** The canonical V3 pool the factory holds for the pair and fee. */
const v3Pool = (a: Address, b: Address, fee: number) =>
  devnet.publicClient.readContract({
    address: devnet.manifest.contracts.v3Factory,
    abi: uniswapV3FactoryAbi,
    functionName: "getPool",
    args: [a, b, fee],
  });

const registryCall = (functionName: "setBuilderEnabled" | "setBuilderMaxFee", args: readonly unknown[]) => ({
  to: devnet.manifest.contracts.builderRegistry,
  data: encodeFunctionData({ abi: builderRegistryArtifact.abi, functionName, args } as never),
});

describe("spoofed callbacks", () => {
  beforeAll(async () => {
    await kit.wrap(TRADER, 10n ** 18n);
  });

  it("rejects uniswapV3SwapCallback from an EOA", async () => {
    expect(await kit.revertOf(address(ATTACKER), v3Callback(10n ** 18n, 0n))).toEqual({
      errorName: "UnauthorizedCallback",
      args: [address(ATTACKER)],
    });
  });

  it("rejects it from a canonical pool of another fee tier, even in a mined transaction", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const pool = await v3Pool(usdc, weth, 10000);
    expect(await devnet.publicClient.getCode({ address: pool })).toBeDefined();
    expect(await kit.revertOf(pool, v3Callback(0n, 10n ** 18n))).toEqual({
      errorName: "UnauthorizedCallback",
      args: [pool],
    });
    // The pool's own address sending a real transaction (impersonated) is refused on chain too.
    await devnet.testClient.impersonateAccount({ address: pool });
    await devnet.testClient.setBalance({ address: pool, value: 10n ** 18n });
    const hash = await devnet.testClient.sendUnsignedTransaction({
      from: pool,
      gas: 200_000n,
      ...v3Callback(0n, 1n),
    });
    const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("reverted");
    await devnet.testClient.stopImpersonatingAccount({ address: pool });
    await kit.expectExecutorEmpty();
  });

  it("rejects it from a fake pool: the official V3 pool code at a non-canonical address", async () => {
    const fake = getAddress("0x000000000000000000000000000000000000fa4e");
    await devnet.testClient.setCode({
      address: fake,
      bytecode: officialBytecode("UniswapV3Pool").deployedBytecode,
    });
    expect(await kit.revertOf(fake, v3Callback(10n ** 18n, 0n))).toEqual({
      errorName: "UnauthorizedCallback",
      args: [fake],
    });
  });

  it("rejects unlockCallback from an EOA and from the PoolManager when the executor is not waiting for it", async () => {
    const steal = `0x${kit.token("USDC").slice(2)}${(10n ** 6n).toString(16).padStart(64, "0")}` as Hex;
    expect(await kit.revertOf(address(ATTACKER), unlockCallback(steal))).toEqual({
      errorName: "UnauthorizedCallback",
      args: [address(ATTACKER)],
    });
    const poolManager = getAddress(devnet.manifest.contracts.v4PoolManager);
    expect(await kit.revertOf(poolManager, unlockCallback(steal))).toEqual({
      errorName: "UnauthorizedCallback",
      args: [poolManager],
    });
  });
});

describe("pools the executor will not use", () => {
  beforeAll(async () => {
    await kit.approveExecutor(TRADER, kit.token("USDC"));
  });

  const attempt = (
    tokenIn: Address,
    tokenOut: Address,
    hop: Parameters<typeof buildExecutorSwap>[0]["route"]["branches"][number]["hops"][number],
  ) =>
    kit.revertOf(
      address(TRADER),
      buildExecutorSwap(
        kit.terms({
          tokenIn,
          tokenOut,
          amountIn: 10n ** 6n,
          recipient: address(TRADER),
          route: { branches: [{ amountIn: 10n ** 6n, hops: [hop] }] },
        }),
      ),
    );

  it("derives the V3 pool itself: a fee tier without a canonical pool is refused, whatever exists elsewhere", async () => {
    const [usdc, dai] = [kit.token("USDC"), kit.token("DAI")];
    expect(await v3Pool(usdc, dai, 3000)).toBe(zeroAddress);
    const result = await attempt(usdc, dai, { kind: "v3", currencyOut: dai, fee: 3000 });
    expect(result.errorName).toBe("PoolNotDeployed");
    expect(await devnet.publicClient.getCode({ address: result.args[0] as Address })).toBeUndefined();
  });

  it("never reaches a hooked V4 pool: the key it derives has no hooks, and no such pool exists", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const hooked = devnet.manifest.pools.find(
      (p) => p.kind === "v4" && p.hook === "swap-hook" && p.fee === 500,
    );
    expect(hooked).toBeDefined();
    expect(await attempt(usdc, weth, { kind: "v4", currencyOut: weth, fee: 500, tickSpacing: 10 })).toEqual({
      errorName: "PoolNotInitialized",
      args: [],
    });
  });

  it("refuses a dynamic-fee V4 key before anything moves", async () => {
    const usdc = kit.token("USDC");
    // The route encoder refuses it too; hand-encode the same bytes to reach the contract.
    const route =
      `0x0101${(10n ** 6n).toString(16).padStart(32, "0")}0103${"0".repeat(40)}800000${"00000a"}` as Hex;
    const data = encodeFunctionData({
      abi: executorArtifact.abi,
      functionName: "swap",
      args: [{ ...swapParams(usdc, zeroAddress, 10n ** 6n), minOut: 0n }, route],
    });
    expect(await kit.revertOf(address(TRADER), { to: executor(), data })).toEqual({
      errorName: "InvalidV4PoolKey",
      args: [0x800000, 10],
    });
  });
});

describe("fees", () => {
  const usdc = () => kit.token("USDC");
  const weth = () => kit.token("WETH");
  const amountIn = 10_000n * 10n ** 6n;

  beforeAll(async () => {
    await kit.approveExecutor(TRADER, kit.token("USDC"));
  });

  async function feesFor(maxRouteFeeBps: number, maxBuilderFeeBps: number, pairFee = false) {
    const gross = await kit.quote.v2(usdc(), weth(), amountIn, await latest());
    const { settled } = await kit.swap(
      TRADER,
      kit.terms({
        tokenIn: usdc(),
        tokenOut: weth(),
        amountIn,
        recipient: address(TRADER),
        maxRouteFeeBps,
        pairFee,
        maxBuilderFeeBps,
        route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: weth() }] }] },
      }),
    );
    expect(settled.grossAmountOut).toBe(gross);
    await kit.expectExecutorEmpty();
    return settled;
  }

  it("charges the quoted bps when the quote disclosed less than the policy", async () => {
    const settled = await feesFor(3, 2);
    expect(settled.routeFee).toBe(feeOf(settled.grossAmountOut, 3));
    expect(settled.builderFee).toBe(feeOf(settled.grossAmountOut, 2));
  });

  it("never charges above the policy (25 bps) or the builder's cap (50 bps), whatever the calldata says", async () => {
    // Both fee fields all ones: the service fee's 15 bits, and its flag saying (wrongly) the pair has a fee
    // of its own.
    const settled = await feesFor(0x7fff, 65_535, true);
    expect(settled.routeFee).toBe(feeOf(settled.grossAmountOut, 25));
    expect(settled.builderFee).toBe(feeOf(settled.grossAmountOut, 50));
  });

  it("follows a cap governance lowered after the quote", async () => {
    const { demoBuilder } = devnet.manifest.junction;
    await kit.send(GOVERNANCE, registryCall("setBuilderMaxFee", [demoBuilder.builderId, 4]));
    const settled = await feesFor(50, 10);
    expect(settled.builderFee).toBe(feeOf(settled.grossAmountOut, 4));
    await kit.send(GOVERNANCE, registryCall("setBuilderMaxFee", [demoBuilder.builderId, 50]));
  });

  it("never pays a suspended builder; its profile stays readable; re-enabled, it is paid again", async () => {
    const { demoBuilder } = devnet.manifest.junction;
    const before = await kit.claimable(demoBuilder.recipient, weth());
    await kit.send(GOVERNANCE, registryCall("setBuilderEnabled", [demoBuilder.builderId, false]));
    const suspended = await feesFor(25, 10);
    expect(suspended.builderFee).toBe(0n);
    expect(suspended.builderRecipient).toBe(zeroAddress);
    expect(suspended.builderId).toBe(demoBuilder.builderId);
    expect(await kit.claimable(demoBuilder.recipient, weth())).toBe(before);
    const profile = await devnet.publicClient.readContract({
      address: devnet.manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "builderByCode",
      args: [demoBuilder.code],
    });
    expect(profile).toMatchObject({ code: demoBuilder.code, enabled: false });

    await kit.send(GOVERNANCE, registryCall("setBuilderEnabled", [demoBuilder.builderId, true]));
    const paid = await feesFor(25, 10);
    expect(paid.builderFee).toBe(feeOf(paid.grossAmountOut, 10));
    expect(await kit.claimable(demoBuilder.recipient, weth())).toBe(before + paid.builderFee);
  });

  it("refuses a builder fee change from anyone but governance", async () => {
    const { demoBuilder } = devnet.manifest.junction;
    expect(
      await kit.revertOf(
        address(ATTACKER),
        registryCall("setBuilderEnabled", [demoBuilder.builderId, false]),
      ),
    ).toEqual({ errorName: "NotGovernance", args: [address(ATTACKER)] });
  });
});

describe("other people's tokens and leftovers", () => {
  it("cannot move another account's approved tokens: it only ever pulls from the caller", async () => {
    const usdc = kit.token("USDC");
    await kit.send(VICTIM, {
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [executor(), maxUint256] }),
    });
    const victimBefore = await kit.balanceOf(usdc, address(VICTIM));
    const amountIn = 1_000n * 10n ** 6n;
    const theft = buildExecutorSwap(
      kit.terms({
        tokenIn: usdc,
        tokenOut: kit.token("WETH"),
        amountIn,
        recipient: address(ATTACKER),
        route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: kit.token("WETH") }] }] },
      }),
    );
    // The attacker has not approved the executor: the pull from the attacker fails, the victim is untouched.
    expect((await kit.revertOf(address(ATTACKER), theft)).errorName).toBe("TransferFromFailed");
    // Having approved, the attacker only spends their own USDC.
    const attackerBefore = await kit.balanceOf(usdc, address(ATTACKER));
    await kit.approveExecutor(ATTACKER, usdc);
    await kit.send(ATTACKER, theft);
    expect(attackerBefore - (await kit.balanceOf(usdc, address(ATTACKER)))).toBe(amountIn);
    expect(await kit.balanceOf(usdc, address(VICTIM))).toBe(victimBefore);
    await kit.expectExecutorEmpty();
  });

  it("refuses ETH sent to it directly, expired deadlines, wrong msg.value and fee-on-transfer input", async () => {
    expect(await kit.revertOf(address(ATTACKER), { to: executor(), data: "0x", value: 1n })).toEqual({
      errorName: "UnexpectedNativeSender",
      args: [address(ATTACKER)],
    });
    const usdc = kit.token("USDC");
    const ethIn = (amountIn: bigint) =>
      kit.terms({
        tokenIn: zeroAddress,
        tokenOut: usdc,
        amountIn,
        recipient: address(TRADER),
        route: {
          branches: [{ amountIn, hops: [{ kind: "v4", currencyOut: usdc, fee: 500, tickSpacing: 10 }] }],
        },
      });
    const expired = buildExecutorSwap({ ...ethIn(10n ** 18n), deadline: 1n });
    expect((await kit.revertOf(address(TRADER), expired)).errorName).toBe("DeadlineExpired");
    const short = { ...buildExecutorSwap(ethIn(10n ** 18n)), value: 10n ** 18n - 1n };
    expect(await kit.revertOf(address(TRADER), short)).toEqual({
      errorName: "InvalidNativeValue",
      args: [10n ** 18n, 10n ** 18n - 1n],
    });
    const tax = kit.token("TAX");
    await kit.approveExecutor(TRADER, tax);
    const taxed = buildExecutorSwap(
      kit.terms({
        tokenIn: tax,
        tokenOut: kit.token("WETH"),
        amountIn: 10n ** 18n,
        recipient: address(TRADER),
        route: {
          branches: [{ amountIn: 10n ** 18n, hops: [{ kind: "v2", currencyOut: kit.token("WETH") }] }],
        },
      }),
    );
    expect(await kit.revertOf(address(TRADER), taxed)).toEqual({
      errorName: "UnsupportedInputToken",
      args: [tax, 10n ** 18n, 99n * 10n ** 16n],
    });
    await kit.expectExecutorEmpty();
  });

  it("does not hand tokens parked in it to the next swapper: output is measured as a balance change", async () => {
    const [usdc, weth] = [kit.token("USDC"), kit.token("WETH")];
    const held = await kit.balanceOf(weth, executor());
    await kit.wrap(VICTIM, 10n ** 18n);
    await kit.send(VICTIM, {
      to: weth,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [executor(), 10n ** 18n] }),
    });
    const amountIn = 2_000n * 10n ** 6n;
    const gross = await kit.quote.v2(usdc, weth, amountIn, await latest());
    const { settled } = await kit.swap(
      TRADER,
      kit.terms({
        tokenIn: usdc,
        tokenOut: weth,
        amountIn,
        recipient: address(TRADER),
        route: { branches: [{ amountIn, hops: [{ kind: "v2", currencyOut: weth }] }] },
      }),
    );
    expect(settled.grossAmountOut).toBe(gross);
    // What it held before (fees it owes), the parked tokens (dust it now owns) and this swap's fees.
    expect(await kit.balanceOf(weth, executor())).toBe(
      held + 10n ** 18n + settled.routeFee + settled.builderFee,
    );
  });
});

function swapParams(tokenIn: Address, tokenOut: Address, amountIn: bigint) {
  const { demoBuilder } = devnet.manifest.junction;
  return {
    tokenIn,
    tokenOut,
    amountIn,
    minOut: 0n,
    recipient: address(TRADER),
    deadline: BigInt(Math.floor(Date.now() / 1000) + 3_600),
    maxRouteFeeBps: 50,
    maxBuilderFeeBps: 10,
    builderId: demoBuilder.builderId,
    quoteId: `0x${"11".repeat(32)}` as Hex,
    keyIdHash: `0x${"22".repeat(32)}` as Hex,
  };
}
