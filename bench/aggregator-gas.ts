import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseEther,
  parseUnits,
  zeroAddress,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { junctionChain } from "../src/chain/chain.ts";
import { erc20Abi } from "../src/contracts/abis/ERC20.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { startAggregatorStandIns } from "../src/devnet/stand-ins/start-aggregator-stand-ins.ts";
import { createAggregatorA } from "../src/providers/aggregator-a.ts";
import { createAggregatorB } from "../src/providers/aggregator-b.ts";
import type { ProviderQuote, QuoteProvider } from "../src/providers/provider.ts";
import { type AggregatorEntry, buildExecutorAggregatorSwap } from "../src/routing/aggregator-calldata.ts";
import { machineLine, table } from "./machine.ts";

/** The funded account that sends every transaction, and the one that receives every output. */
const PAYER = 4;
const RECIPIENT = 7;
const BUILDER_FEE_BPS = 10;
const ROUNDS = 2;

/** How the payer sends the aggregator's transaction. */
const MODES = [
  { name: "direct", through: false, builderFee: 0, attributed: false },
  { name: "executor, unattributed", through: true, builderFee: 0, attributed: false },
  { name: "executor, attributed, no fee", through: true, builderFee: 0, attributed: true },
  { name: "executor, builder fee", through: true, builderFee: BUILDER_FEE_BPS, attributed: true },
] as const;
type Mode = (typeof MODES)[number];

/**
 * `npm run bench -- aggregator-gas`: what a third-party aggregator's transaction costs in whole devnet
 * transactions (receipts' `gasUsed`: base, calldata and refunds included) sent by the payer directly and
 * through the executor (`swapThroughAggregator`) unattributed, attributed without a fee and with the demo
 * builder's fee, for both stand-ins and three directions, each quoted by its running HTTP stand-in as the
 * service asks it. Every combination runs `ROUNDS` times and the last round is reported (a steady state:
 * the stand-ins' and the executor's balances in each token already non-zero). The forge snapshot
 * (`contracts/.gas-snapshot`) measures the calls alone; this measures what a payer pays.
 */
export async function benchAggregatorGas(devnet: Devnet): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const chain = junctionChain(rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), cacheTime: 0 }) as PublicClient;
  const payer = privateKeyToAccount(manifest.accounts[PAYER]!.privateKey as Hex);
  const recipient = manifest.accounts[RECIPIENT]!.address as Address;
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: payer });
  const { contracts, aggregators } = manifest;
  const usdc = manifest.tokens.find((t) => t.symbol === "USDC")!.address as Address;

  const standIns = await startAggregatorStandIns(manifest, ["aggregator-a", "aggregator-b"]);
  try {
    const providers: { provider: QuoteProvider; entry: AggregatorEntry; variants?: string[] }[] = [
      {
        provider: createAggregatorA({
          baseUrl: standIns.urls["aggregator-a"]!,
          router: aggregators.aggregatorARouter,
        }),
        entry: "router",
        variants: ["default"],
      },
      {
        provider: createAggregatorB({
          baseUrl: standIns.urls["aggregator-b"]!,
          chainId: manifest.chainId,
          allowanceHolder: aggregators.allowanceHolder,
          settlerRegistry: aggregators.settlerRegistry,
          client,
        }),
        entry: "allowance-holder",
      },
    ];
    const send = async (tx: { to: Address; data: Hex; value?: bigint }) => {
      const hash = await wallet.sendTransaction({ ...tx, chain: wallet.chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return receipt;
    };
    // A returning user: USDC approved to the executor and to both aggregators' spenders, for good.
    for (const spender of [contracts.executor, aggregators.aggregatorARouter, aggregators.allowanceHolder])
      await send({
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }),
      });

    const directions = [
      {
        name: "ERC-20 (2,000 USDC to WETH)",
        tokenIn: usdc,
        tokenOut: contracts.weth9,
        amountIn: parseUnits("2000", 6),
      },
      { name: "ETH in (0.5 ETH to USDC)", tokenIn: zeroAddress, tokenOut: usdc, amountIn: parseEther("0.5") },
      {
        name: "ETH out (2,000 USDC to ETH)",
        tokenIn: usdc,
        tokenOut: zeroAddress,
        amountIn: parseUnits("2000", 6),
      },
    ] as const;

    const rows: string[][] = [];
    for (const { provider, entry, variants } of providers) {
      for (const direction of directions) {
        const gas: Record<string, bigint> = {};
        for (let round = 1; round <= ROUNDS; round++) {
          for (const mode of MODES) {
            const quote = await quoteFor(provider, direction, mode, variants);
            const tx = mode.through ? wrapped(quote, direction, mode, entry) : quote.tx;
            const receipt = await send(tx);
            gas[mode.name] = receipt.gasUsed;
          }
        }
        const direct = gas.direct!;
        const cells = MODES.slice(1).flatMap((mode) => {
          const used = gas[mode.name]!;
          return [used.toLocaleString("en-US"), `+${(used - direct).toLocaleString("en-US")}`];
        });
        rows.push([`${provider.id}, ${direction.name}`, direct.toLocaleString("en-US"), ...cells]);
      }
    }
    return [
      machineLine(`devnet seed ${manifest.seed}; round ${ROUNDS} of ${ROUNDS} of each transaction`),
      "",
      ...table(
        [
          "Aggregator, direction",
          "Direct",
          "Executor, unattributed",
          "Over direct",
          "Attributed, no fee",
          "Over direct",
          `Builder fee (${BUILDER_FEE_BPS} bps)`,
          "Over direct",
        ],
        rows,
      ),
    ];
  } finally {
    await standIns.close();
  }

  /** The provider's quote as the service asks it: the payer's own, or with the executor as taker. */
  async function quoteFor(
    provider: QuoteProvider,
    direction: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
    mode: Mode,
    variants?: string[],
  ): Promise<ProviderQuote> {
    // Through the executor without a builder fee the aggregator pays the recipient directly (aggregatorPayee).
    const taker = mode.through ? contracts.executor : payer.address;
    const payee = mode.builderFee === 0 ? recipient : undefined;
    const outcomes = await provider.quote({
      ...direction,
      taker,
      ...(payee ? { recipient: payee } : {}),
      blockNumber: await client.getBlockNumber(),
      signal: AbortSignal.timeout(20_000),
      ...(variants ? { variants } : {}),
    });
    const quote = outcomes.find((o): o is ProviderQuote => !("reason" in o) && !o.bindingMismatch);
    if (!quote)
      throw new Error(
        `${provider.id}: no usable quote (${JSON.stringify(outcomes.map((o) => ("reason" in o ? o.reason : "mismatch")))})`,
      );
    return quote;
  }

  function wrapped(
    quote: ProviderQuote,
    direction: { tokenIn: Address; tokenOut: Address; amountIn: bigint },
    mode: Mode,
    entry: AggregatorEntry,
  ) {
    const net = quote.amountOut - (quote.amountOut * BigInt(mode.builderFee)) / 10_000n;
    return buildExecutorAggregatorSwap({
      executor: contracts.executor,
      ...direction,
      minOut: (net * 99n) / 100n,
      recipient,
      deadline: quote.expiresAt ?? BigInt(Math.floor(Date.now() / 1000) + 600),
      maxRouteFeeBps: 0,
      maxBuilderFeeBps: mode.builderFee,
      builderId: mode.attributed ? manifest.junction.demoBuilder.builderId : zeroHash,
      entry,
      data: quote.tx.data,
    });
  }
}
