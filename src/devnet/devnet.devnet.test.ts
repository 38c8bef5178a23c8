import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { encodeFunctionData, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDevnet, type TestDevnet } from "../../test/devnet.ts";
import { CHAIN_ID } from "../chain/chain.ts";
import { erc20Abi } from "../contracts/abis/ERC20.ts";
import { stateViewAbi } from "../contracts/abis/StateView.ts";
import { uniswapV2PairAbi } from "../contracts/abis/UniswapV2Pair.ts";
import { uniswapV3PoolAbi } from "../contracts/abis/UniswapV3Pool.ts";
import { matchesOfficialCode, officialBytecode, permit2RuntimeCode } from "../contracts/official.ts";
import { ManifestSchema } from "./manifest.ts";

let devnet: TestDevnet;
beforeAll(async () => {
  devnet = await startTestDevnet();
});
afterAll(() => devnet?.dispose());

describe("devnet", () => {
  it("runs chain 4663 with finalized trailing latest by two blocks", async () => {
    expect(await devnet.publicClient.getChainId()).toBe(CHAIN_ID);
    await devnet.testClient.mine({ blocks: 3 });
    const latest = await devnet.publicClient.getBlock({ blockTag: "latest" });
    const finalized = await devnet.publicClient.getBlock({ blockTag: "finalized" });
    expect(finalized.number).toBe(latest.number - 2n);
    // Cancun or later: blob gas fields exist on blocks.
    expect(latest.excessBlobGas).not.toBeNull();
  });

  it("writes a valid manifest with at least 14 tokens and 100 pools", () => {
    const json = JSON.parse(readFileSync(join(devnet.dataDir, "devnet", "manifest.json"), "utf8"));
    const manifest = ManifestSchema.parse(json);
    expect(manifest.chainId).toBe(CHAIN_ID);
    expect(manifest.rpcUrl).toBe(devnet.rpcUrl);
    expect(manifest.tokens.length).toBeGreaterThanOrEqual(14);
    expect(manifest.pools.length).toBeGreaterThanOrEqual(100);
    expect(manifest.accounts.filter((a) => a.role === "test").length).toBeGreaterThanOrEqual(5);
    expect(existsSync(join(devnet.dataDir, "devnet", "state.json"))).toBe(true);
  });

  it("runs the official Uniswap, WETH9 and Permit2 runtime code at every listed address", async () => {
    const { contracts } = devnet.manifest;
    const official = {
      weth9: "WETH9",
      v2Factory: "UniswapV2Factory",
      v2Router02: "UniswapV2Router02",
      v3Factory: "UniswapV3Factory",
      v3PositionManager: "NonfungiblePositionManager",
      v3SwapRouter: "SwapRouter",
      v3QuoterV2: "QuoterV2",
      v4PoolManager: "PoolManager",
      v4PositionManager: "PositionManager",
      v4StateView: "StateView",
      v4Quoter: "V4Quoter",
      universalRouter: "UniversalRouter",
    } as const;
    for (const [key, name] of Object.entries(official)) {
      const code = await devnet.publicClient.getCode({ address: contracts[key as keyof typeof official] });
      expect(code, key).toBeDefined();
      expect(matchesOfficialCode(code!, officialBytecode(name)), `${key} is ${name}`).toBe(true);
    }
    expect(await devnet.publicClient.getCode({ address: contracts.permit2 })).toBe(permit2RuntimeCode());
    // A pool created by the factory is the official pool code too.
    const v3 = devnet.manifest.pools.find((p) => p.kind === "v3")!;
    const poolCode = await devnet.publicClient.getCode({
      address: (v3 as { address: `0x${string}` }).address,
    });
    expect(matchesOfficialCode(poolCode!, officialBytecode("UniswapV3Pool"))).toBe(true);
  });

  it("seeded every pool with liquidity", async () => {
    const client = devnet.publicClient;
    for (const pool of devnet.manifest.pools) {
      if (pool.kind === "v2") {
        const [reserve0, reserve1] = await client.readContract({
          address: pool.address,
          abi: uniswapV2PairAbi,
          functionName: "getReserves",
        });
        expect(reserve0 > 0n && reserve1 > 0n, `V2 ${pool.symbols.join("/")}`).toBe(true);
      } else if (pool.kind === "v3") {
        const liquidity = await client.readContract({
          address: pool.address,
          abi: uniswapV3PoolAbi,
          functionName: "liquidity",
        });
        expect(liquidity, `V3 ${pool.symbols.join("/")} ${pool.fee}`).toBeGreaterThan(0n);
      } else {
        const liquidity = await client.readContract({
          address: devnet.manifest.contracts.v4StateView,
          abi: stateViewAbi,
          functionName: "getLiquidity",
          args: [pool.poolId],
        });
        expect(liquidity, `V4 ${pool.symbols.join("/")} ${pool.fee}/${pool.tickSpacing}`).toBeGreaterThan(0n);
        expect(pool.routable).toBe(pool.key.hooks === zeroAddress);
      }
    }
  });

  it("deploys tokens that behave as their kind says", async () => {
    const wallet = devnet.wallet(2);
    const account = wallet.account!.address;
    const recipient = devnet.manifest.accounts[3]!.address;
    const byKind = (kind: string) =>
      devnet.manifest.tokens.find((t) => t.kind === kind && t.symbol !== "WETH")!;
    const balance = (token: `0x${string}`, who: `0x${string}`) =>
      devnet.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [who],
      });

    const taxed = byKind("fee-on-transfer").address;
    const before = await balance(taxed, recipient);
    const hash = await wallet.sendTransaction({
      account: wallet.account!,
      chain: wallet.chain,
      to: taxed,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [recipient, parseEther("100")],
      }),
    });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
    expect((await balance(taxed, recipient)) - before).toBe(parseEther("99"));

    for (const kind of ["solady-layout", "erc7201-namespaced", "rebasing-shares", "standard"]) {
      expect(await balance(byKind(kind).address, account), kind).toBeGreaterThan(0n);
    }
  });
});
