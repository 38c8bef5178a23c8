import {
  type Address,
  createPublicClient,
  createTestClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  zeroAddress,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { junctionChain } from "../src/chain/chain.ts";
import { UNISWAP_PRESETS } from "../src/config/uniswap-presets.ts";
import { erc20Abi } from "../src/contracts/abis/ERC20.ts";
import { nonfungiblePositionManagerAbi } from "../src/contracts/abis/NonfungiblePositionManager.ts";
import { poolManagerAbi } from "../src/contracts/abis/PoolManager.ts";
import { uniswapV2FactoryAbi } from "../src/contracts/abis/UniswapV2Factory.ts";
import { uniswapV2PairAbi } from "../src/contracts/abis/UniswapV2Pair.ts";
import { uniswapV3FactoryAbi } from "../src/contracts/abis/UniswapV3Factory.ts";
import { uniswapV3PoolAbi } from "../src/contracts/abis/UniswapV3Pool.ts";
import { weth9Abi } from "../src/contracts/abis/WETH9.ts";
import { devnetTokenArtifact } from "../src/contracts/artifacts/DevnetToken.ts";
import { officialBytecode, permit2RuntimeCode } from "../src/contracts/official.ts";
import { type Anvil, startAnvil } from "../src/devnet/anvil.ts";
import { sqrtPriceX96 } from "../src/devnet/price-math.ts";

const CANONICAL = UNISWAP_PRESETS["ethereum-canonical"];
/** anvil's default accounts (`--accounts 10` from its test mnemonic). */
const MNEMONIC = "test test test test test test test test test test test junk";
export const anvilAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index });

/**
 * What to build: `v4: false` leaves Uniswap V4 out (no PoolManager, PositionManager or StateView, no V4
 * pool), as on a chain that has only V2 and V3; `v3UsdcPerWeth` gives the V3 pool full-range liquidity
 * (500 WETH) at that price, minted through a NonfungiblePositionManager deployed at a scratch address,
 * instead of an empty pool at price 1.
 */
export type CanonicalOptions = { v4?: boolean; v3UsdcPerWeth?: bigint };

export type CanonicalChain = {
  anvil: Anvil;
  rpcUrl: string;
  usdc: Address;
  /** The V2 WETH/USDC pair, created through the canonical factory (so at its CREATE2 address). */
  v2Pair: Address;
  v3Pool: Address;
};

/**
 * A fresh anvil (chain 4663) holding the official Uniswap contracts at their Ethereum-canonical addresses
 * (the `ethereum-canonical` preset), a test USDC, and pools made through the canonical factories: a funded
 * V2 WETH/USDC pair, an initialized V3 pool and an initialized V4 pool.
 *
 * Each contract is deployed from its npm artifact at a scratch address, then its runtime code and the
 * storage its constructor wrote (a prestate diff trace of the deployment) are placed at the canonical
 * address; where the code embeds its own address (V3's and V4's delegate-call guard is an immutable), the
 * scratch address in the code is replaced by the canonical one. Pools are created through the placed
 * factories, so their addresses are the ones the canonical init code hashes derive.
 */
export async function startCanonicalUniswapChain(options: CanonicalOptions = {}): Promise<CanonicalChain> {
  const withV4 = options.v4 ?? true;
  // Blocks every second: `finalized` (latest - 2) moves on its own, as receipts to finality need.
  const anvil = await startAnvil({ blockTime: 1 });
  const chain = junctionChain(anvil.rpcUrl);
  const client = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
  const tester = createTestClient({ chain, mode: "anvil", transport: http(anvil.rpcUrl) });
  const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  const from = anvilAccount(0).address;

  const send = async (tx: { to?: Address; data: Hex; value?: bigint }) => {
    const hash = (await request({
      method: "eth_sendTransaction",
      params: [
        {
          from,
          ...(tx.to ? { to: tx.to } : {}),
          data: tx.data,
          gas: "0x1c9c380",
          ...(tx.value ? { value: `0x${tx.value.toString(16)}` } : {}),
        },
      ],
    })) as Hex;
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const place = async (name: Parameters<typeof officialBytecode>[0], at: Address, args: Hex = "0x") => {
    const receipt = await send({ data: `${officialBytecode(name).bytecode}${args.slice(2)}` as Hex });
    const scratch = receipt.contractAddress!.toLowerCase();
    const trace = (await request({
      method: "debug_traceTransaction",
      params: [receipt.transactionHash, { tracer: "prestateTracer", tracerConfig: { diffMode: true } }],
    })) as { post: Record<string, { storage?: Record<Hex, Hex> }> };
    const code = (await client.getCode({ address: receipt.contractAddress! }))!;
    await tester.setCode({
      address: at,
      bytecode: code.toLowerCase().replaceAll(scratch.slice(2), at.toLowerCase().slice(2)) as Hex,
    });
    for (const [slot, value] of Object.entries(trace.post[scratch]?.storage ?? {}))
      await tester.setStorageAt({ address: at, index: slot as Hex, value });
  };
  const encode = (types: string[], values: unknown[]) =>
    encodeAbiParameters(
      types.map((type) => ({ type })),
      values,
    );

  await place("WETH9", CANONICAL.weth9);
  await tester.setCode({ address: CANONICAL.permit2, bytecode: permit2RuntimeCode() });
  await place("UniswapV2Factory", CANONICAL.v2Factory, encode(["address"], [from]));
  await place("UniswapV3Factory", CANONICAL.v3Factory);
  if (withV4) {
    await place("PoolManager", CANONICAL.v4PoolManager, encode(["address"], [from]));
    await place(
      "PositionManager",
      CANONICAL.v4PositionManager,
      encode(
        ["address", "address", "uint256", "address", "address"],
        [CANONICAL.v4PoolManager, CANONICAL.permit2, 300_000n, zeroAddress, CANONICAL.weth9],
      ),
    );
    await place("StateView", CANONICAL.v4StateView, encode(["address"], [CANONICAL.v4PoolManager]));
  }

  const usdcReceipt = await send({
    data: `${devnetTokenArtifact.bytecode}${encode(
      ["string", "string", "uint8", "address[]", "uint256"],
      ["USD Coin", "USDC", 6, [from], 10n ** 15n],
    ).slice(2)}` as Hex,
  });
  const usdc = usdcReceipt.contractAddress!;
  const weth = CANONICAL.weth9;
  const [token0, token1] = BigInt(weth) < BigInt(usdc) ? [weth, usdc] : [usdc, weth];

  // V2: a pair funded with 1,000 WETH and 3,000,000 USDC (mint after transferring, as the router does).
  await send({
    to: weth,
    data: encodeFunctionData({ abi: weth9Abi, functionName: "deposit" }),
    value: 2n * 10n ** 21n,
  });
  await send({
    to: CANONICAL.v2Factory,
    data: encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: "createPair", args: [weth, usdc] }),
  });
  const v2Pair = await client.readContract({
    address: CANONICAL.v2Factory,
    abi: uniswapV2FactoryAbi,
    functionName: "getPair",
    args: [weth, usdc],
  });
  for (const [token, amount] of [
    [weth, 10n ** 21n],
    [usdc, 3_000_000n * 10n ** 6n],
  ] as const)
    await send({
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [v2Pair, amount] }),
    });
  await send({
    to: v2Pair,
    data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: "mint", args: [from] }),
  });

  // V3 and V4: initialized pools (no liquidity), for the index to find through the canonical contracts.
  await send({
    to: CANONICAL.v3Factory,
    data: encodeFunctionData({
      abi: uniswapV3FactoryAbi,
      functionName: "createPool",
      args: [weth, usdc, 3000],
    }),
  });
  const v3Pool = await client.readContract({
    address: CANONICAL.v3Factory,
    abi: uniswapV3FactoryAbi,
    functionName: "getPool",
    args: [weth, usdc, 3000],
  });
  if (options.v3UsdcPerWeth === undefined)
    await send({
      to: v3Pool,
      data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: "initialize", args: [2n ** 96n] }),
    });
  else await fundV3Pool(send, { weth, usdc, v3Pool, from }, options.v3UsdcPerWeth);
  if (!withV4) return { anvil, rpcUrl: anvil.rpcUrl, usdc, v2Pair, v3Pool };
  await send({
    to: CANONICAL.v4PoolManager,
    data: encodeFunctionData({
      abi: poolManagerAbi,
      functionName: "initialize",
      args: [
        { currency0: token0, currency1: token1, fee: 500, tickSpacing: 10, hooks: zeroAddress },
        2n ** 96n,
      ],
    }),
  });
  return { anvil, rpcUrl: anvil.rpcUrl, usdc, v2Pair, v3Pool };
}

/** Initializes the V3 pool at `usdcPerWeth` and mints 500 WETH of full-range liquidity through a fresh NPM. */
async function fundV3Pool(
  send: (tx: { to?: Address; data: Hex }) => Promise<{ contractAddress?: Address | null }>,
  at: { weth: Address; usdc: Address; v3Pool: Address; from: Address },
  usdcPerWeth: bigint,
) {
  const wethAmount = 500n * 10n ** 18n;
  const usdcAmount = 500n * usdcPerWeth * 10n ** 6n;
  const wethFirst = BigInt(at.weth) < BigInt(at.usdc);
  const [token0, token1] = wethFirst ? [at.weth, at.usdc] : [at.usdc, at.weth];
  const [amount0, amount1] = wethFirst ? [wethAmount, usdcAmount] : [usdcAmount, wethAmount];
  await send({
    to: at.v3Pool,
    data: encodeFunctionData({
      abi: uniswapV3PoolAbi,
      functionName: "initialize",
      args: [sqrtPriceX96(amount0, amount1)],
    }),
  });
  const npm = (
    await send({
      data: `${officialBytecode("NonfungiblePositionManager").bytecode}${encodeAbiParameters(
        [{ type: "address" }, { type: "address" }, { type: "address" }],
        [CANONICAL.v3Factory, at.weth, zeroAddress],
      ).slice(2)}` as Hex,
    })
  ).contractAddress!;
  for (const token of [at.weth, at.usdc])
    await send({
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [npm, 2n ** 255n] }),
    });
  await send({
    to: npm,
    data: encodeFunctionData({
      abi: nonfungiblePositionManagerAbi,
      functionName: "mint",
      args: [
        {
          token0,
          token1,
          fee: 3000,
          tickLower: -887220,
          tickUpper: 887220,
          amount0Desired: amount0,
          amount1Desired: amount1,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: at.from,
          deadline: 2n ** 48n,
        },
      ],
    }),
  });
}
