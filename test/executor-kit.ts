import {
  type Address,
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseEventLogs,
  toBytes,
  zeroAddress,
} from "viem";
import { expect } from "vitest";
import { erc20Abi } from "../src/contracts/abis/ERC20.ts";
import { quoterV2Abi } from "../src/contracts/abis/QuoterV2.ts";
import { uniswapV2Router02Abi } from "../src/contracts/abis/UniswapV2Router02.ts";
import { v4QuoterAbi } from "../src/contracts/abis/V4Quoter.ts";
import { weth9Abi } from "../src/contracts/abis/WETH9.ts";
import { builderRegistryArtifact } from "../src/contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../src/contracts/artifacts/Executor.ts";
import { buildExecutorSwap, type ExecutorSwap } from "../src/routing/executor-calldata.ts";
import type { TestDevnet } from "./devnet.ts";

/**
 * Helpers for driving the deployed executor on a test devnet: token lookup, the official quoters as the
 * oracle (QuoterV2, V4Quoter, Router02 at a pinned block), sending signed swaps, reading the `Settled`
 * event, and checking that the executor holds nothing.
 */
export function executorKit(devnet: TestDevnet) {
  const { manifest, publicClient } = devnet;
  const { contracts } = manifest;

  const token = (symbol: string): Address => {
    if (symbol === "ETH") return zeroAddress;
    const found = manifest.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`no token ${symbol}`);
    return getAddress(found.address);
  };
  const poolSide = (currency: Address) => (currency === zeroAddress ? contracts.weth9 : currency);
  const sorted = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);

  const balanceOf = (asset: Address, who: Address, blockNumber?: bigint) =>
    asset === zeroAddress
      ? publicClient.getBalance({ address: who, blockNumber })
      : publicClient.readContract({
          address: asset,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [who],
          blockNumber,
        });

  const quote = {
    v2: async (tokenIn: Address, tokenOut: Address, amountIn: bigint, blockNumber: bigint) => {
      const amounts = await publicClient.readContract({
        address: contracts.v2Router02,
        abi: uniswapV2Router02Abi,
        functionName: "getAmountsOut",
        args: [amountIn, [poolSide(tokenIn), poolSide(tokenOut)]],
        blockNumber,
      });
      return amounts[1]!;
    },
    v3: async (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint, blockNumber: bigint) => {
      const { result } = await publicClient.simulateContract({
        address: contracts.v3QuoterV2,
        abi: quoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [
          { tokenIn: poolSide(tokenIn), tokenOut: poolSide(tokenOut), amountIn, fee, sqrtPriceLimitX96: 0n },
        ],
        blockNumber,
      });
      return result[0];
    },
    v4: async (
      currencyIn: Address,
      currencyOut: Address,
      fee: number,
      tickSpacing: number,
      amountIn: bigint,
      blockNumber: bigint,
    ) => {
      const [currency0, currency1] = sorted(currencyIn, currencyOut);
      const { result } = await publicClient.simulateContract({
        address: contracts.v4Quoter,
        abi: v4QuoterAbi,
        functionName: "quoteExactInputSingle",
        args: [
          {
            poolKey: { currency0, currency1, fee, tickSpacing, hooks: zeroAddress },
            zeroForOne: currency0 === currencyIn,
            exactAmount: amountIn,
            hookData: "0x",
          },
        ],
        blockNumber,
      });
      return result[0];
    },
  };

  /**
   * Sends a signed transaction from funded account `index`, with a 25% gas margin over the estimate as a
   * wallet would add (a V3 pool's oracle write, for one, depends on the block timestamp the estimate saw).
   */
  const send = async (index: number, tx: { to: Address; data: Hex; value?: bigint }) => {
    const wallet = devnet.wallet(index);
    const account = wallet.account!;
    const gas = await publicClient.estimateGas({ account, ...tx });
    const hash = await wallet.sendTransaction({ account, chain: wallet.chain, gas: (gas * 5n) / 4n, ...tx });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };

  /** Wraps `amount` of the account's ETH into WETH9 (test accounts hold no WETH). */
  const wrap = (index: number, amount: bigint) =>
    send(index, {
      to: contracts.weth9,
      data: encodeFunctionData({ abi: weth9Abi, functionName: "deposit" }),
      value: amount,
    });

  const approveExecutor = (index: number, asset: Address) =>
    send(index, {
      to: asset,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [contracts.executor, maxUint256],
      }),
    });

  /** Defaults for the swap terms: the demo builder at its 10 bps, the schedule's max 50 bps service fee. */
  const terms = (
    overrides: Partial<ExecutorSwap> &
      Pick<ExecutorSwap, "tokenIn" | "tokenOut" | "amountIn" | "route" | "recipient">,
  ): ExecutorSwap => ({
    executor: contracts.executor,
    minOut: 0n,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 3_600),
    maxRouteFeeBps: 50,
    maxBuilderFeeBps: manifest.junction.demoBuilder.builderFeeBps,
    builderId: manifest.junction.demoBuilder.builderId,
    quoteId: keccak256(toBytes(`quote-${Math.random()}`)),
    keyIdHash: keccak256(toBytes("key-1")),
    ...overrides,
  });

  /**
   * Sends the swap from funded account `index` and returns its receipt and its one settlement record: the
   * collector's `Settled` event, or, for an attributed swap that charged no fee, the executor's `Attributed`
   * event read as history reads it (no fee, the registry's policy at its block).
   */
  const swap = async (index: number, swapTerms: ExecutorSwap) => {
    const tx = buildExecutorSwap(swapTerms);
    const receipt = await send(index, tx);
    const settled = parseEventLogs({
      abi: executorArtifact.abi,
      logs: receipt.logs,
      eventName: "Settled",
    });
    const attributed = parseEventLogs({
      abi: executorArtifact.abi,
      logs: receipt.logs,
      eventName: "Attributed",
    });
    expect(settled.length + attributed.length).toBe(1);
    if (settled[0]) {
      expect(settled[0].address.toLowerCase()).toBe(contracts.settlementCollector.toLowerCase());
      return { receipt, settled: settled[0].args };
    }
    const record = attributed[0]!;
    expect(record.address.toLowerCase()).toBe(contracts.executor.toLowerCase());
    const [builderRecipient, policyVersion] = await publicClient.readContract({
      address: contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "recordPolicy",
      args: [record.args.builderId],
      blockNumber: receipt.blockNumber,
    });
    const { args } = record;
    return {
      receipt,
      settled: {
        ...args,
        grossAmountOut: args.amountOut,
        routeFee: 0n,
        builderFee: 0n,
        builderRecipient,
        policyVersion,
      },
    };
  };

  /**
   * Every token of the universe and ETH: after any transaction the executor holds exactly the fees it owes
   * (to the demo builder's wallet, and the service's under it and under the zero account), nothing of a
   * payer's.
   */
  const expectExecutorEmpty = async () => {
    const owed = async (asset: Address) => {
      let sum = 0n;
      for (const account of FEE_ACCOUNTS)
        sum += (await claimable(account, asset)) + (await serviceClaimable(account, asset));
      return sum;
    };
    expect(await publicClient.getBalance({ address: contracts.executor })).toBe(await owed(zeroAddress));
    for (const t of manifest.tokens)
      expect(await balanceOf(t.address, contracts.executor), t.symbol).toBe(await owed(t.address));
  };
  const FEE_ACCOUNTS = [zeroAddress, manifest.junction.demoBuilder.recipient] as const;

  /** The service's fees of `asset` under every account the devnet's swaps credit. */
  const serviceOwed = async (asset: Address, blockNumber?: bigint) => {
    let sum = 0n;
    for (const account of FEE_ACCOUNTS) sum += await serviceClaimable(account, asset, blockNumber);
    return sum;
  };

  /**
   * The custom error an `eth_call` of `tx` from `from` reverts with, decoded against the executor's,
   * registry's and collector's ABIs plus the foreign errors a swap can surface (PoolManager, Solady).
   */
  const revertOf = async (from: Address, tx: { to: Address; data: Hex; value?: bigint }) => {
    try {
      await publicClient.call({ account: from, ...tx });
    } catch (error) {
      const data = error instanceof BaseError ? findRevertData(error) : undefined;
      if (!data) throw error;
      const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data });
      return { errorName: decoded.errorName, args: decoded.args ?? [] };
    }
    throw new Error("the call did not revert");
  };

  const claimable = (recipient: Address, asset: Address, blockNumber?: bigint) =>
    publicClient.readContract({
      address: contracts.settlementCollector,
      abi: executorArtifact.abi,
      functionName: "claimable",
      args: [recipient, asset],
      blockNumber,
    });
  const serviceClaimable = (account: Address, asset: Address, blockNumber?: bigint) =>
    publicClient.readContract({
      address: contracts.settlementCollector,
      abi: executorArtifact.abi,
      functionName: "serviceClaimable",
      args: [account, asset],
      blockNumber,
    });

  return {
    token,
    balanceOf,
    quote,
    send,
    wrap,
    approveExecutor,
    terms,
    swap,
    expectExecutorEmpty,
    revertOf,
    claimable,
    serviceClaimable,
    serviceOwed,
  };
}

const KNOWN_ERRORS = [
  ...executorArtifact.abi.filter((item) => item.type === "error"),
  ...builderRegistryArtifact.abi.filter((item) => item.type === "error"),
  ...parseAbi(["error PoolNotInitialized()", "error TransferFromFailed()", "error TransferFailed()"]),
];

function findRevertData(error: BaseError): Hex | undefined {
  const found = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as {
    data?: Hex;
  } | null;
  return found?.data;
}

/** `floor(gross * bps / 10000)`: the executor's fee rounding, in the user's favour. */
export const feeOf = (gross: bigint, bps: number) => (gross * BigInt(bps)) / 10_000n;
