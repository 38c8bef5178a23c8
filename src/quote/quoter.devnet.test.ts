import {
  type Address,
  encodeFunctionData,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseEther,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { createPoolIndex } from "../liquidity/pool-index/pool-index.ts";
import { buildExecutorSwap } from "../routing/executor-calldata.ts";
import { createFixtures } from "../simulation/fixtures.ts";
import { createQuoter } from "./create-quoter.ts";
import { QuoteError, type QuoteResult } from "./quote-types.ts";

let devnet: TestDevnet;
let quote: ReturnType<typeof createQuoter>;
beforeAll(async () => {
  devnet = await startTestDevnet();
  const { contracts } = devnet.manifest;
  const index = createPoolIndex({
    client: devnet.publicClient,
    contracts,
    fromBlock: BigInt(devnet.manifest.deploymentBlock),
  });
  await index.sync();
  quote = createQuoter({
    client: devnet.publicClient as PublicClient,
    index,
    contracts,
    fixtures: createFixtures(devnet.publicClient),
  });
});
afterAll(() => devnet?.dispose());

const token = (symbol: string) =>
  symbol === "ETH" ? zeroAddress : devnet.manifest.tokens.find((t) => t.symbol === symbol)!.address;
const run = (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
  quote({ tokenIn, tokenOut, amountIn }, new AbortController().signal);

const balance = (asset: Address, who: Address) =>
  asset === zeroAddress
    ? devnet.publicClient.getBalance({ address: who })
    : devnet.publicClient.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [who],
      });

/** Sends the selected route for a funded account right after the quote; returns what the recipient got. */
async function execute(result: QuoteResult, accountIndex: number): Promise<bigint> {
  const wallet = devnet.wallet(accountIndex);
  const account = wallet.account!;
  const { contracts } = devnet.manifest;
  const { tokenIn, tokenOut, amountIn } = result.request;
  if (tokenIn.toLowerCase() === contracts.weth9.toLowerCase()) {
    const wrap = await wallet.sendTransaction({
      account,
      chain: wallet.chain,
      to: contracts.weth9,
      data: encodeFunctionData({ abi: parseAbi(["function deposit() payable"]), functionName: "deposit" }),
      value: amountIn,
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash: wrap });
  }
  if (tokenIn !== zeroAddress) {
    const hash = await wallet.writeContract({
      account,
      chain: wallet.chain,
      address: tokenIn,
      abi: erc20Abi,
      functionName: "approve",
      args: [contracts.executor, maxUint256],
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
  }
  const tx = buildExecutorSwap({
    executor: contracts.executor,
    tokenIn,
    tokenOut,
    amountIn,
    minOut: result.selected.amountOut,
    recipient: account.address,
    // The next block is mined at wall-clock time, which may be far past a restored snapshot's last block.
    deadline: BigInt(Math.floor(Date.now() / 1000)) + 3600n,
    maxRouteFeeBps: result.selected.serviceFeeBps,
    maxBuilderFeeBps: 0,
    route: result.selected.executorRoute!,
  });
  const before = await balance(tokenOut, account.address);
  const simulation = result.selected.simulation;
  if (simulation.status !== "simulated") throw new Error("the selected candidate was not simulated");
  const hash = await wallet.sendTransaction({
    account,
    chain: wallet.chain,
    to: tx.to,
    data: tx.data,
    value: tx.value,
    // The gas the quote measured, with the margin swap preparation adds: never too low.
    gas: (simulation.gas * 5n) / 4n,
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") {
    // Why: the same call replayed on the state it ran on.
    const why = await devnet.publicClient
      .call({ account, to: tx.to, data: tx.data, value: tx.value, blockNumber: receipt.blockNumber - 1n })
      .then(() => `no revert on replay; gas used ${receipt.gasUsed} of ${(simulation.gas * 5n) / 4n}`)
      .catch((error: Error) => error.message.split("\n").slice(0, 3).join(" "));
    expect.fail(`the executed swap reverted: ${why}`);
  }
  const gasPaid = tokenOut === zeroAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
  return (await balance(tokenOut, account.address)) - before + gasPaid;
}

describe("quote pipeline on the devnet", () => {
  it("selects a simulated route whose execution delivers exactly the assessed output", async () => {
    const result = await run(devnet.manifest.contracts.weth9, token("USDC"), parseEther("40"));
    const { selected } = result;
    expect(selected.simulation.status).toBe("simulated");
    if (selected.simulation.status !== "simulated") return;
    expect(selected.simulation.amountOut).toBe(selected.amountOut);
    expect(result.comparison.filter((c) => c.id === selected.id)).toHaveLength(1);
    // Simulation, not the search's gas heuristic alone, decides between the best routes: at least two
    // distinct ones of ours were run (simulation-shortlist.ts).
    const ours = result.comparison.filter((c) => c.provider === "service");
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(ours.every((c) => c.simulation.status === "simulated")).toBe(true);
    expect(result.gasPrice).toBeGreaterThan(0n);
    expect(selected.serviceFeeBps).toBeGreaterThan(0);
    expect(selected.serviceFeeBps).toBeLessThanOrEqual(50);
    for (const branch of selected.branches) {
      for (const hop of branch.hops) {
        if (hop.pool.kind === "v4") expect(hop.pool.excluded).toBeUndefined();
      }
    }
    expect(await execute(result, 3)).toBe(selected.simulation.amountOut);
  });

  it("loads a pool's ticks past the first window when a large trade moves its price that far", async () => {
    // About $10M of WETH: more than most devnet pools hold, so the best routes push V3/V4 prices far.
    const result = await run(devnet.manifest.contracts.weth9, token("USDC"), parseEther("4000"));
    expect(result.search.widenedPools).toBeGreaterThan(0);
    const { selected } = result;
    expect(selected.simulation.status).toBe("simulated");
    // The concentrated pools it drains are in the route, quoted exactly from the wider state.
    expect(selected.branches.some((b) => b.hops.some((hop) => hop.pool.kind !== "v2"))).toBe(true);
    expect(await execute(result, 6)).toBe(selected.amountOut);
  });

  it("routes native ETH in and native ETH out", async () => {
    const ethIn = await run(zeroAddress, token("USDC"), parseEther("3"));
    expect(ethIn.selected.simulation.status).toBe("simulated");
    expect(await execute(ethIn, 4)).toBe(ethIn.selected.amountOut);

    const ethOut = await run(token("USDC"), zeroAddress, 9_000n * 10n ** 6n);
    expect(ethOut.selected.simulation.status).toBe("simulated");
    expect(await execute(ethOut, 4)).toBe(ethOut.selected.amountOut);
  });

  it("finds multi-hop routes between tokens with no direct pool", async () => {
    const result = await run(token("TINY"), token("AAVE"), 50_000n * 10n ** 6n);
    expect(result.selected.simulation.status).toBe("simulated");
    expect(Math.max(...result.selected.branches.map((b) => b.hops.length))).toBeGreaterThanOrEqual(2);
    expect(await execute(result, 5)).toBe(result.selected.amountOut);
  });

  it("never passes a fee-on-transfer output off as a success", async () => {
    const result = await run(devnet.manifest.contracts.weth9, token("TAX"), parseEther("1")).catch((e) => e);
    if (result instanceof QuoteError) {
      expect(result.code).toBe("NO_EXECUTABLE_ROUTE");
    } else {
      expect(result.selected.simulation.status).not.toBe("simulated");
    }
  });

  it("marks a computed-balance input unverified instead of simulated", async () => {
    const rUsd = token("rUSD");
    const deployer = devnet.manifest.accounts.find((a) => a.role === "deployer")!;
    const abi = parseAbi(["function rebase(uint256)", "function totalSupply() view returns (uint256)"]);
    const supply = await devnet.publicClient.readContract({
      address: rUsd,
      abi,
      functionName: "totalSupply",
    });
    await devnet.testClient.impersonateAccount({ address: deployer.address });
    const hash = await devnet.testClient.sendUnsignedTransaction({
      from: deployer.address,
      to: rUsd,
      data: encodeFunctionData({ abi, functionName: "rebase", args: [(supply * 1011n) / 1000n] }),
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
    const result = await run(rUsd, token("USDC"), 1_000n * 10n ** 18n);
    expect(result.selected.simulation).toMatchObject({
      status: "unverified",
      reason: "unsupported-token-layout",
    });
    expect(result.warnings.join(" ")).toMatch(/unverified/);
  });

  it("probes common V4 keys only when nothing connects, once, and routes through what it finds (rule 11)", async () => {
    const withPaths = await run(devnet.manifest.contracts.weth9, token("USDC"), parseEther("1"));
    expect(withPaths.search.fallbackProbe).toBeNull();
    expect(withPaths.search.pools).toBeLessThanOrEqual(96);

    // An index that has seen nothing (it starts after every pool was created): only the probe can connect.
    const { contracts } = devnet.manifest;
    const blind = createPoolIndex({
      client: devnet.publicClient,
      contracts,
      fromBlock: (await devnet.publicClient.getBlockNumber()) + 1n,
    });
    const probing = createQuoter({
      client: devnet.publicClient as PublicClient,
      index: blind,
      contracts,
      fixtures: createFixtures(devnet.publicClient),
    });
    const result = await probing(
      { tokenIn: zeroAddress, tokenOut: token("USDC"), amountIn: parseEther("2") },
      new AbortController().signal,
    );
    expect(result.search.fallbackProbe).toEqual({ keys: 28, found: expect.any(Number) });
    expect(result.search.fallbackProbe!.found).toBeGreaterThanOrEqual(3);
    const hops = result.selected.branches.flatMap((b) => b.hops);
    expect(hops.every((hop) => hop.pool.kind === "v4" && hop.pool.discovery.via === "probe")).toBe(true);
    expect(result.selected.simulation.status).toBe("simulated");

    // A pair nothing connects, even after probing: one probe, then NO_ROUTE (no second, wider search).
    await expect(
      probing(
        { tokenIn: token("TAX"), tokenOut: token("GEM"), amountIn: 10n ** 18n },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ code: "NO_ROUTE" });
  });

  it("answers UNKNOWN_TOKEN for an address without code", async () => {
    await expect(run("0x00000000000000000000000000000000DeaDBeef", token("USDC"), 1n)).rejects.toMatchObject({
      code: "UNKNOWN_TOKEN",
    });
  });
});
