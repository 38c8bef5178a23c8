import {
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  formatUnits,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseEventLogs,
  publicActions,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { junctionChain } from "../src/chain/chain.ts";
import { erc20Abi } from "../src/contracts/abis/ERC20.ts";
import { weth9Abi } from "../src/contracts/abis/WETH9.ts";
import { builderRegistryArtifact } from "../src/contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../src/contracts/artifacts/Executor.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { buildExecutorSwap } from "../src/routing/executor-calldata.ts";
import { GAS_MODEL, type GasTerm, gasTerms, routeGas } from "../src/routing/gas-model.ts";
import { buildScenario, conversions, GAS_SCENARIOS, type Scenario } from "./gas-scenarios.ts";
import { leastSquares } from "./least-squares.ts";
import { machineLine, table } from "./machine.ts";
import { loadRoutingState } from "./routing-state.ts";

/** The funded test account that sends every swap (it holds every token, so no balance starts at zero). */
const TRADER = 3;
const SWAP_GAS_LIMIT = 3_000_000n;
/** Each swap is mined at least this long after the block before, as the first swap of a block on a live chain. */
const BLOCK_SECONDS = 12;
const TERMS = Object.keys(GAS_MODEL) as GasTerm[];

type Measured = {
  scenario: Scenario;
  gasUsed: number;
  grossOut: bigint;
  terms: Record<GasTerm, number>;
  wraps: number;
  unwraps: number;
};

/**
 * Alternative model shapes, fitted on the same receipts: whether a term earns its place, or a missing one
 * would. Each maps a measurement to its feature vector.
 */
const SHAPES: { name: string; columns: (m: Measured) => number[] }[] = [
  { name: "the model's shape (`gasTerms`)", columns: (m) => TERMS.map((t) => m.terms[t]) },
  {
    name: "without `v4Run` (every V4 hop pays an unlock)",
    columns: (m) => TERMS.filter((t) => t !== "v4Run").map((t) => m.terms[t]),
  },
  {
    name: "one tick cost for V3 and V4",
    columns: (m) => [
      ...TERMS.filter((t) => !t.endsWith("TickCrossed")).map((t) => m.terms[t]),
      m.terms.v3TickCrossed + m.terms.v4TickCrossed,
    ],
  },
  {
    name: "both (the shape before this calibration)",
    columns: (m) => [
      ...TERMS.filter((t) => t !== "v4Run" && !t.endsWith("TickCrossed")).map((t) => m.terms[t]),
      m.terms.v3TickCrossed + m.terms.v4TickCrossed,
    ],
  },
  {
    name: "plus a term per wrap and per unwrap of native ETH",
    columns: (m) => [...TERMS.map((t) => m.terms[t]), m.wraps, m.unwraps],
  },
];

/**
 * `npm run bench -- gas`: executes real executor swaps on a private devnet (every pool kind; 1 to 3 hops
 * and branches; 0, 1 and 2 ticks per hop; native ETH in and out), each from the same state (anvil snapshot
 * and revert) as the first swap of a new block, reads `gasUsed` from the receipts and fits the constants of
 * `GAS_MODEL` to them by least squares over the counts `gasTerms` gives for each route.
 */
export async function calibrateGas(devnet: Devnet): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const chain = junctionChain(rpcUrl);
  const transport = http(rpcUrl);
  const node = createTestClient({ chain, transport, mode: "anvil", cacheTime: 0 }).extend(publicActions);
  const client = node as unknown as PublicClient;
  const account = privateKeyToAccount(manifest.accounts[TRADER]!.privateKey as Hex);
  const wallet = createWalletClient({ chain, transport, account });
  const send = async (tx: { to: Address; data: Hex; value?: bigint }) => {
    await node.increaseTime({ seconds: BLOCK_SECONDS });
    const hash = await wallet.sendTransaction({ ...tx, gas: SWAP_GAS_LIMIT });
    const receipt = await receiptOf(node, hash);
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };

  // The trader holds WETH and has approved the executor for every token, as a returning user would.
  await send({
    to: manifest.contracts.weth9,
    data: encodeFunctionData({ abi: weth9Abi, functionName: "deposit" }),
    value: 100_000n * 10n ** 18n,
  });
  for (const token of manifest.tokens) {
    await send({
      to: token.address as Address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [manifest.contracts.executor, maxUint256],
      }),
    });
  }

  const swap = async (scenario: Scenario) => {
    // As the quote pipeline builds it, the calldata says when the pair has a fee of its own.
    const [, pairFee] = await client.readContract({
      address: manifest.contracts.builderRegistry,
      abi: builderRegistryArtifact.abi,
      functionName: "pairRouteFee",
      args: [scenario.tokenIn, scenario.tokenOut],
    });
    const receipt = await send(
      buildExecutorSwap({
        executor: manifest.contracts.executor,
        tokenIn: scenario.tokenIn,
        tokenOut: scenario.tokenOut,
        amountIn: scenario.amountIn,
        minOut: 0n,
        recipient: account.address,
        deadline: BigInt(Math.floor(Date.now() / 1000)) + 10n ** 6n,
        // As the quote pipeline sends it: the pair's service fee (the executor caps it at the policy), no builder.
        maxRouteFeeBps: 50,
        pairFee,
        maxBuilderFeeBps: 0,
        route: scenario.route,
      }),
    );
    const [settled] = parseEventLogs({
      abi: executorArtifact.abi,
      logs: receipt.logs,
      eventName: "Settled",
    });
    if (!settled) throw new Error(`${scenario.name}: no Settled event`);
    return { gasUsed: Number(receipt.gasUsed), grossOut: settled.args.grossAmountOut };
  };

  // Prime every output token once with a small swap, so the treasury's claimable balance is not zero (as on
  // a live chain, where the first fee in a token is paid once, not on every swap).
  let state = await loadRoutingState(client, manifest);
  const primed = new Set<string>();
  for (const spec of GAS_SCENARIOS) {
    const scenario = buildScenario(state, spec);
    if (primed.has(scenario.tokenOut)) continue;
    primed.add(scenario.tokenOut);
    await swap(buildScenario(state, spec, scenario.amountIn / 1_000n));
  }

  state = await loadRoutingState(client, manifest);
  const measured: Measured[] = [];
  for (const spec of GAS_SCENARIOS) {
    const scenario = buildScenario(state, spec);
    const id = await node.snapshot();
    try {
      const { gasUsed, grossOut } = await swap(scenario);
      measured.push({
        scenario,
        gasUsed,
        grossOut,
        terms: gasTerms(scenario.branches),
        ...conversions(scenario.route, scenario.tokenIn),
      });
    } finally {
      await node.revert({ id });
    }
  }

  const gas = measured.map((m) => m.gasUsed);
  const fits = SHAPES.map((shape) => {
    const rows = measured.map(shape.columns);
    const coefficients = leastSquares(rows, gas).map(Math.round);
    const errors = rows.map((row, i) => row.reduce((sum, x, j) => sum + x * coefficients[j]!, 0) - gas[i]!);
    return { shape, coefficients, errors };
  });
  const fitted = fits[0]!;
  const currentErrors = measured.map((m) => routeGas(m.scenario.branches) - m.gasUsed);

  const n = (value: number) => Math.round(value).toLocaleString("en-US");
  const pct = (error: number, of: number) => `${error >= 0 ? "+" : ""}${((100 * error) / of).toFixed(1)}%`;
  const stats = (errors: number[]) => {
    const rms = Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length);
    const relative = errors.map((e, i) => Math.abs(e) / gas[i]!);
    const mean = relative.reduce((a, b) => a + b, 0) / relative.length;
    return [n(rms), `${(100 * mean).toFixed(1)}%`, `${(100 * Math.max(...relative)).toFixed(1)}%`];
  };
  const token = (address: Address) =>
    address === zeroAddress
      ? { symbol: "ETH", decimals: 18 }
      : manifest.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())!;
  const mismatched = measured.filter((m) => m.grossOut !== m.scenario.grossOut);

  return [
    "## Gas model calibration",
    "",
    machineLine(
      `devnet seed ${manifest.seed}, ${devnet.boot.kind} boot, block ${state.blockNumber}; ${measured.length} executor swaps, each from the same state (snapshot and revert) as the first swap of a new block; the trader holds every token; service fee on, no builder`,
    ),
    "",
    ...table(
      ["Constant", "In `GAS_MODEL` now", "Fitted (least squares)"],
      TERMS.map((term, i) => [`\`${term}\``, n(GAS_MODEL[term]), n(fitted.coefficients[i]!)]),
    ),
    "",
    ...table(
      ["Model", "RMS error (gas)", "Mean abs error", "Worst"],
      [
        ["`GAS_MODEL` as committed", ...stats(currentErrors)],
        ...fits.map((fit) => [`fitted: ${fit.shape.name}`, ...stats(fit.errors)]),
      ],
    ),
    "",
    `Executed gross output equal to our swap math's prediction in ${measured.length - mismatched.length} of ${measured.length} swaps${mismatched.length ? ` (differs: ${mismatched.map((m) => m.scenario.name).join(", ")})` : ""}.`,
    "",
    ...table(
      [
        "Scenario",
        "Route",
        "Amount in",
        "Ticks",
        "Wrap/unwrap",
        "Receipt gas",
        "Fitted",
        "Error",
        "Committed",
        "Error",
      ],
      measured.map((m, i) => {
        const { scenario, gasUsed } = m;
        const input = token(scenario.tokenIn);
        return [
          scenario.name,
          `\`${scenario.label.replaceAll("|", "\\|")}\``,
          `${formatUnits(scenario.amountIn, input.decimals)} ${input.symbol}`,
          scenario.branches.map((b) => b.ticksCrossed.join("+")).join(", "),
          `${m.wraps}/${m.unwraps}`,
          n(gasUsed),
          n(gasUsed + fitted.errors[i]!),
          pct(fitted.errors[i]!, gasUsed),
          n(gasUsed + currentErrors[i]!),
          pct(currentErrors[i]!, gasUsed),
        ];
      }),
    ),
  ];
}

/**
 * Polls for a receipt: anvil mines on arrival and no other block follows, so waiting for a new block (as
 * `waitForTransactionReceipt` does) can wait forever when the transaction was mined before watching began.
 */
async function receiptOf(node: Pick<PublicClient, "getTransactionReceipt">, hash: Hex) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const receipt = await node.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (receipt) return receipt;
    if (performance.now() > deadline) throw new Error(`transaction ${hash} was not mined within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
