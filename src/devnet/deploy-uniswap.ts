import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  type PublicClient,
  zeroAddress,
} from "viem";
import { uniswapV3FactoryAbi } from "../contracts/abis/UniswapV3Factory.ts";
import { officialBytecode, permit2RuntimeCode } from "../contracts/official.ts";
import { PERMIT2_ADDRESS } from "../contracts/official-paths.ts";
import type { Sender } from "./sender.ts";

/** Addresses of the official contracts on the devnet; the manifest's `contracts` section. */
export type UniswapDeployment = {
  weth9: Address;
  permit2: Address;
  v2Factory: Address;
  v2Router02: Address;
  v3Factory: Address;
  v3PositionManager: Address;
  v3SwapRouter: Address;
  v3QuoterV2: Address;
  v4PoolManager: Address;
  v4PositionManager: Address;
  v4StateView: Address;
  v4Quoter: Address;
  universalRouter: Address;
  /** Init code hashes the canonical pool addresses derive from (CREATE2). */
  v2PairInitCodeHash: `0x${string}`;
  v3PoolInitCodeHash: `0x${string}`;
};

/** Gas limit PositionManager gives a subscriber's `notifyUnsubscribe` (the value Uniswap deploys with). */
const UNSUBSCRIBE_GAS_LIMIT = 300_000n;

/**
 * Deploys WETH9, Permit2 and Uniswap V2, V3 and V4 (core, position managers, quoters, StateView) and the
 * Universal Router from the bytecode in their official npm artifacts. Nothing is recompiled.
 */
export async function deployUniswap(
  client: PublicClient & { setCode: (args: { address: Address; bytecode: `0x${string}` }) => Promise<void> },
  sender: Sender,
  progress: (step: string) => void,
): Promise<UniswapDeployment> {
  const deploy = (name: Parameters<typeof officialBytecode>[0], args?: `0x${string}`) =>
    sender.deploy({ bytecode: officialBytecode(name).bytecode, args, label: `deploy ${name}` });
  const encode =
    (...types: string[]) =>
    (values: unknown[]) =>
      encodeAbiParameters(
        types.map((type) => ({ type })),
        values,
      );

  progress("WETH9 and Permit2");
  const weth9 = await deploy("WETH9");
  await client.setCode({ address: PERMIT2_ADDRESS, bytecode: permit2RuntimeCode() });

  progress("Uniswap V2");
  const v2Factory = await deploy("UniswapV2Factory", encode("address")([sender.from]));
  const v2Router02 = await deploy("UniswapV2Router02", encode("address", "address")([v2Factory, weth9]));

  progress("Uniswap V3");
  const v3Factory = await deploy("UniswapV3Factory");
  // Mainnet enabled the 1 bp tier (tick spacing 1) after launch; the devnet does the same.
  await sender.send({
    to: v3Factory,
    data: encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: "enableFeeAmount", args: [100, 1] }),
    label: "enable V3 fee tier 100",
  });
  const factoryAndWeth = encode("address", "address")([v3Factory, weth9]);
  const v3PositionManager = await deploy(
    "NonfungiblePositionManager",
    // No token descriptor: tokenURI is not used by routing, and the descriptor needs a linked library.
    encode("address", "address", "address")([v3Factory, weth9, zeroAddress]),
  );
  const v3SwapRouter = await deploy("SwapRouter", factoryAndWeth);
  const v3QuoterV2 = await deploy("QuoterV2", factoryAndWeth);

  progress("Uniswap V4");
  const v4PoolManager = await deploy("PoolManager", encode("address")([sender.from]));
  const v4PositionManager = await deploy(
    "PositionManager",
    encode(
      "address",
      "address",
      "uint256",
      "address",
      "address",
    )([v4PoolManager, PERMIT2_ADDRESS, UNSUBSCRIBE_GAS_LIMIT, zeroAddress, weth9]),
  );
  const v4StateView = await deploy("StateView", encode("address")([v4PoolManager]));
  const v4Quoter = await deploy("V4Quoter", encode("address")([v4PoolManager]));

  const v2PairInitCodeHash = keccak256(officialBytecode("UniswapV2Pair").bytecode);
  const v3PoolInitCodeHash = keccak256(officialBytecode("UniswapV3Pool").bytecode);

  progress("Universal Router");
  const universalRouter = await deploy(
    "UniversalRouter",
    encodeAbiParameters(
      [
        {
          type: "tuple",
          components: [
            { name: "permit2", type: "address" },
            { name: "weth9", type: "address" },
            { name: "v2Factory", type: "address" },
            { name: "v3Factory", type: "address" },
            { name: "pairInitCodeHash", type: "bytes32" },
            { name: "poolInitCodeHash", type: "bytes32" },
            { name: "v4PoolManager", type: "address" },
            { name: "v3NFTPositionManager", type: "address" },
            { name: "v4PositionManager", type: "address" },
            { name: "spokePool", type: "address" },
          ],
        },
      ],
      [
        {
          permit2: PERMIT2_ADDRESS,
          weth9,
          v2Factory,
          v3Factory,
          pairInitCodeHash: v2PairInitCodeHash,
          poolInitCodeHash: v3PoolInitCodeHash,
          v4PoolManager,
          v3NFTPositionManager: v3PositionManager,
          v4PositionManager,
          spokePool: zeroAddress,
        },
      ],
    ),
  );

  return {
    weth9,
    permit2: PERMIT2_ADDRESS,
    v2Factory,
    v2Router02,
    v3Factory,
    v3PositionManager,
    v3SwapRouter,
    v3QuoterV2,
    v4PoolManager,
    v4PositionManager,
    v4StateView,
    v4Quoter,
    universalRouter,
    v2PairInitCodeHash,
    v3PoolInitCodeHash,
  };
}
