import { type Address, encodeFunctionData, maxUint256, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { quoterV2Abi } from "../contracts/abis/QuoterV2.ts";
import { swapRouterAbi } from "../contracts/abis/SwapRouter.ts";
import { uniswapV2Router02Abi } from "../contracts/abis/UniswapV2Router02.ts";
import { v4QuoterAbi } from "../contracts/abis/V4Quoter.ts";
import { v4ExactInSwap } from "./v4-exact-in-swap.ts";

/**
 * Swaps through one V2, one V3 and one V4 pool with the official periphery (Router02, SwapRouter, Universal
 * Router), signed by a funded test account, and checks the balances moved as the official quoters said.
 */
let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) => devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;

async function send(index: number, to: Address, data: `0x${string}`, value = 0n) {
  const wallet = devnet.wallet(index);
  const hash = await wallet.sendTransaction({
    account: wallet.account!,
    chain: wallet.chain,
    to,
    data,
    value,
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

const balanceOf = (asset: Address, who: Address) =>
  asset === zeroAddress
    ? devnet.publicClient.getBalance({ address: who })
    : devnet.publicClient.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [who],
      });

async function approve(index: number, asset: Address, spender: Address) {
  await send(
    index,
    asset,
    encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }),
  );
}

describe("swaps through the official periphery", () => {
  it("V2: Router02 swaps USDC for WETH at the pair's constant-product price", async () => {
    const { contracts } = devnet.manifest;
    const trader = devnet.manifest.accounts[4]!.address;
    const [usdc, weth] = [token("USDC"), contracts.weth9];
    const amountIn = 5_000n * 10n ** 6n;
    const [, expected] = await devnet.publicClient.readContract({
      address: contracts.v2Router02,
      abi: uniswapV2Router02Abi,
      functionName: "getAmountsOut",
      args: [amountIn, [usdc, weth]],
    });
    await approve(4, usdc, contracts.v2Router02);
    const [usdcBefore, wethBefore] = [await balanceOf(usdc, trader), await balanceOf(weth, trader)];
    await send(
      4,
      contracts.v2Router02,
      encodeFunctionData({
        abi: uniswapV2Router02Abi,
        functionName: "swapExactTokensForTokens",
        args: [amountIn, expected!, [usdc, weth], trader, 2n ** 40n],
      }),
    );
    expect(usdcBefore - (await balanceOf(usdc, trader))).toBe(amountIn);
    expect((await balanceOf(weth, trader)) - wethBefore).toBe(expected);
    // About 5000 / 3000 ETH, less the 0.3% fee: the seeded price is realistic.
    expect(expected).toBeGreaterThan(parseEther("1.6"));
    expect(expected).toBeLessThan(parseEther("1.7"));
  });

  it("V3: SwapRouter swaps WETH for USDC across ticks, exactly as QuoterV2 quotes", async () => {
    const { contracts } = devnet.manifest;
    const trader = devnet.manifest.accounts[5]!.address;
    const [usdc, weth] = [token("USDC"), contracts.weth9];
    // The thin 1% tier: 20 WETH moves its price through several initialized ticks.
    const amountIn = parseEther("20");
    const params = { tokenIn: weth, tokenOut: usdc, amountIn, fee: 10000, sqrtPriceLimitX96: 0n };
    const { result } = await devnet.publicClient.simulateContract({
      address: contracts.v3QuoterV2,
      abi: quoterV2Abi,
      functionName: "quoteExactInputSingle",
      args: [params],
    });
    const [expected, , ticksCrossed] = result;
    expect(ticksCrossed).toBeGreaterThan(0);

    const wrap = encodeFunctionData({
      abi: [{ type: "function", name: "deposit", inputs: [], outputs: [], stateMutability: "payable" }],
      functionName: "deposit",
    });
    await send(5, weth, wrap, amountIn);
    await approve(5, weth, contracts.v3SwapRouter);
    const before = await balanceOf(usdc, trader);
    await send(
      5,
      contracts.v3SwapRouter,
      encodeFunctionData({
        abi: swapRouterAbi,
        functionName: "exactInputSingle",
        args: [{ ...params, recipient: trader, deadline: 2n ** 40n, amountOutMinimum: expected }],
      }),
    );
    expect((await balanceOf(usdc, trader)) - before).toBe(expected);
  });

  it("V4: the Universal Router swaps native ETH for USDC in a hook-free V4 pool, as V4Quoter quotes", async () => {
    const { contracts, pools } = devnet.manifest;
    const trader = devnet.manifest.accounts[6]!.address;
    const usdc = token("USDC");
    const pool = pools.find(
      (p) => p.kind === "v4" && p.routable && p.key.currency0 === zeroAddress && p.key.currency1 === usdc,
    );
    if (pool?.kind !== "v4") throw new Error("no native ETH/USDC V4 pool in the manifest");
    const amountIn = parseEther("3");
    const { result } = await devnet.publicClient.simulateContract({
      address: contracts.v4Quoter,
      abi: v4QuoterAbi,
      functionName: "quoteExactInputSingle",
      args: [{ poolKey: pool.key, zeroForOne: true, exactAmount: amountIn, hookData: "0x" }],
    });
    const [expected] = result;

    const swap = v4ExactInSwap({
      universalRouter: contracts.universalRouter,
      poolKey: pool.key,
      zeroForOne: true,
      amountIn,
      amountOutMinimum: expected,
      deadline: 2n ** 40n,
    });
    expect(swap.value).toBe(amountIn);
    const before = await balanceOf(usdc, trader);
    const ethBefore = await balanceOf(zeroAddress, trader);
    const receipt = await send(6, swap.to, swap.data, swap.value);
    expect((await balanceOf(usdc, trader)) - before).toBe(expected);
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(ethBefore - (await balanceOf(zeroAddress, trader))).toBe(amountIn + gasPaid);
  });
});
